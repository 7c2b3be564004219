import { API_TOKEN_LIMITS, API_TOKEN_SHOWN_ONCE } from "@atelier/core";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { Modal } from "../../ui/Modal.tsx";
import { notify } from "../../ui/notify.ts";
import { ConfirmDelete, type PendingDelete } from "../library/ConfirmDelete.tsx";
import { type ApiToken, tokenActions, tokenFailureMessage } from "./token-actions.ts";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const shown = (iso: string | null) => (iso ? when.format(new Date(iso)) : "Never");

/** Personal API tokens: create one (its text shown once), see when each was used, revoke. */
export function ApiTokensDialog({ onClose }: { onClose(): void }) {
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [created, setCreated] = useState<{ id: string; token: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<PendingDelete | null>(null);

  const reload = useCallback(async () => {
    try {
      setTokens(await tokenActions.list());
    } catch (error) {
      setTokens([]);
      notify.error(tokenFailureMessage(error, "Failed to load API tokens"));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "");
    setBusy(true);
    try {
      setCreated(await tokenActions.create(name));
      form.reset();
      await reload();
    } catch (error) {
      notify.error(tokenFailureMessage(error, "Failed to create API token"));
    } finally {
      setBusy(false);
    }
  };

  const copy = async (token: string) => {
    if (await tokenActions.copy(token)) notify.info("Token copied");
    else notify.error("Could not copy: select the token and copy it yourself");
  };

  const revoke = (token: ApiToken) =>
    setPending({
      kind: "token",
      name: token.name,
      run: () =>
        void tokenActions
          .revoke(token.id)
          .then(() => {
            if (created?.id === token.id) setCreated(null);
            notify.info(`Revoked “${token.name}”`);
          })
          .catch((error) => notify.error(tokenFailureMessage(error, "Failed to revoke API token")))
          .finally(() => void reload()),
    });

  return (
    <>
      <Modal label="API tokens" onClose={onClose}>
        <div className="api-tokens">
          <h2>API tokens</h2>
          <p className="muted">
            Scripts and tools act as you with a token: send it as{" "}
            <code>Authorization: Bearer &lt;token&gt;</code>. See the{" "}
            <a href="/api/docs" target="_blank" rel="noopener">
              API reference
            </a>
            .
          </p>
          <form className="token-form" onSubmit={(event) => void create(event)}>
            <label>
              Token name
              <input
                name="name"
                required
                maxLength={API_TOKEN_LIMITS.nameMaxLength}
                placeholder="e.g. Render farm"
                autoComplete="off"
              />
            </label>
            <button type="submit" disabled={busy}>
              Create token
            </button>
          </form>
          {created ? (
            <div className="token-created" role="status">
              <p>{API_TOKEN_SHOWN_ONCE}</p>
              <div className="token-secret">
                <input
                  readOnly
                  aria-label="New API token"
                  value={created.token}
                  onFocus={(event) => event.currentTarget.select()}
                />
                <button type="button" onClick={() => void copy(created.token)}>
                  Copy
                </button>
              </div>
            </div>
          ) : null}
          {tokens === null ? (
            <p className="muted">Loading tokens…</p>
          ) : tokens.length === 0 ? (
            <p className="muted">No API tokens yet. Create one to use Atelier from a script.</p>
          ) : (
            <table className="token-list">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.id}>
                    <td>
                      {token.name} <span className="muted">{token.prefix}…</span>
                    </td>
                    <td>{shown(token.createdAt)}</td>
                    <td>{shown(token.lastUsedAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="danger"
                        aria-label={`Revoke ${token.name}`}
                        onClick={() => revoke(token)}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div className="modal-actions">
            <button type="button" onClick={onClose}>
              Done
            </button>
          </div>
        </div>
      </Modal>
      {/* Beside the dialog, not in it: Escape in the confirmation closes only the confirmation. */}
      {pending ? <ConfirmDelete pending={pending} onClose={() => setPending(null)} /> : null}
    </>
  );
}
