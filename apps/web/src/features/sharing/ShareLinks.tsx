import { SHARE_ROLES, type ShareRole } from "@atelier/core";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { notify } from "../../ui/notify.ts";
import {
  EXPIRY_CHOICES,
  linkUrl,
  type ShareLink,
  shareActions,
  shareFailureMessage,
} from "./share-actions.ts";

const ROLE_WORDS: Record<ShareRole, string> = {
  view: "Can view (read-only canvas and results)",
  run: "Can run the app (its form only)",
  edit: "Can edit (signed-in people may open and save)",
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const expiry = (link: ShareLink) => {
  if (!link.expiresAt) return "Never expires";
  const at = new Date(link.expiresAt);
  return at.getTime() <= Date.now() ? "Expired" : `Expires ${when.format(at)}`;
};

/** The owner's links to a workflow: create one with a role and expiry, copy, revoke. */
export function ShareLinks({ workflowId }: { workflowId: string }) {
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setLinks(await shareActions.list(workflowId));
    } catch (error) {
      setLinks([]);
      notify.error(shareFailureMessage(error, "Failed to load share links"));
    }
  }, [workflowId]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const role = String(form.get("role")) as ShareRole;
    const days = EXPIRY_CHOICES[Number(form.get("expiry"))]?.days ?? null;
    setBusy(true);
    try {
      const link = await shareActions.create(workflowId, role, days);
      if (await shareActions.copy(linkUrl(link))) notify.info("Link created and copied");
      else notify.info("Link created");
      await reload();
    } catch (error) {
      notify.error(shareFailureMessage(error, "Failed to create the link"));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (link: ShareLink) => {
    try {
      await shareActions.revoke(workflowId, link.id);
      notify.info("Link revoked: it no longer opens anything");
    } catch (error) {
      notify.error(shareFailureMessage(error, "Failed to revoke the link"));
    }
    await reload();
  };

  const copy = async (link: ShareLink) => {
    if (await shareActions.copy(linkUrl(link))) notify.info("Link copied");
    else notify.error("Could not copy: select the link and copy it yourself");
  };

  return (
    <div className="share-links">
      <form className="token-form" onSubmit={(event) => void create(event)}>
        <label>
          Role
          <select name="role" defaultValue="view">
            {SHARE_ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_WORDS[role]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expiry
          <select name="expiry" defaultValue="0">
            {EXPIRY_CHOICES.map((choice, index) => (
              <option key={choice.label} value={index}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Create link
        </button>
      </form>
      {links === null ? (
        <p className="muted">Loading links…</p>
      ) : links.length === 0 ? (
        <p className="muted">No share links yet. Only you can open this workflow.</p>
      ) : (
        <table className="token-list">
          <thead>
            <tr>
              <th scope="col">Link</th>
              <th scope="col">Role</th>
              <th scope="col">Expiry</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={link.id} data-share-role={link.role}>
                <td>
                  <input
                    readOnly
                    aria-label={`${link.role} link`}
                    value={linkUrl(link)}
                    onFocus={(event) => event.currentTarget.select()}
                  />
                </td>
                <td>{link.role}</td>
                <td>{expiry(link)}</td>
                <td>
                  <button type="button" onClick={() => void copy(link)}>
                    Copy
                  </button>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Revoke ${link.role} link`}
                    onClick={() => void revoke(link)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
