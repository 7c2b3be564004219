import type { AdminUser, Invite } from "@atelier/core";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { FormError } from "../../ui/FormError.tsx";
import { adminActions, adminFailure, refusal } from "./admin-actions.ts";
import { Health } from "./Health.tsx";
import { Jobs } from "./Jobs.tsx";
import { Spend } from "./Spend.tsx";
import { UserLimitsDialog } from "./UserLimitsDialog.tsx";

const day = (iso: string) => new Date(iso).toLocaleDateString();

/** Accounts, newest first, found by address; each can be handed a one-time reset link. */
function Users() {
  const [query, setQuery] = useState("");
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [links, setLinks] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [limitsOf, setLimitsOf] = useState<AdminUser | null>(null);
  const search = useCallback(async (q: string) => {
    try {
      setUsers(await adminActions.users(q));
      setError(null);
    } catch (failure) {
      setError(adminFailure(failure));
    }
  }, []);
  useEffect(() => void search(""), [search]);

  const issue = async (user: AdminUser) => {
    try {
      const { url } = await adminActions.resetLink(user.id);
      setLinks((shown) => ({ ...shown, [user.id]: url }));
    } catch (failure) {
      setError(adminFailure(failure));
    }
  };

  const toggle = async (user: AdminUser) => {
    try {
      const updated = await adminActions.setDisabled(user.id, !user.disabled);
      setUsers((shown) => shown?.map((row) => (row.id === updated.id ? updated : row)) ?? null);
      setError(null);
    } catch (failure) {
      setError(adminFailure(failure));
    }
  };

  return (
    <section aria-label="Users" className="admin-section">
      <h2>Users</h2>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void search(query);
        }}
      >
        <input
          type="search"
          aria-label="Find users by email"
          placeholder="Find by email"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <button type="submit">Find</button>
      </form>
      <FormError message={error} />
      {users === null ? (
        <p className="muted">Loading users…</p>
      ) : users.length === 0 ? (
        <p className="muted">No account has such an address.</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Since</th>
              <th scope="col">Verified</th>
              <th scope="col">Admin</th>
              <th scope="col">Password</th>
              <th scope="col">Access</th>
              <th scope="col">Quotas and budgets</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id}>
                <td>{user.email}</td>
                <td>{day(user.createdAt)}</td>
                <td>{user.emailVerified ? "yes" : "no"}</td>
                <td>{user.isAdmin ? "yes" : "no"}</td>
                <td>
                  {links[user.id] ? (
                    <input
                      readOnly
                      aria-label={`Reset link for ${user.email}`}
                      value={links[user.id]}
                      onFocus={(event) => event.currentTarget.select()}
                    />
                  ) : (
                    <button
                      type="button"
                      onClick={() => void issue(user)}
                      title="A link that sets a new password, once, within an hour: hand it over yourself"
                    >
                      Reset link
                    </button>
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    aria-label={`${user.disabled ? "Enable" : "Disable"} ${user.email}`}
                    onClick={() => void toggle(user)}
                    title={
                      user.disabled
                        ? "Let this account sign in again"
                        : "No sign-in; its sessions end and its API tokens stop working"
                    }
                  >
                    {user.disabled ? "Enable" : "Disable"}
                  </button>
                </td>
                <td>
                  <button
                    type="button"
                    aria-label={`Limits for ${user.email}`}
                    onClick={() => setLimitsOf(user)}
                    title="This account's own quotas and budgets"
                  >
                    Limits
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {limitsOf ? <UserLimitsDialog user={limitsOf} onClose={() => setLimitsOf(null)} /> : null}
    </section>
  );
}

/** Invitations to sign up (SIGNUP=invite): create, copy, withdraw. */
function Invites() {
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setInvites(await adminActions.invites());
    } catch (failure) {
      setError(adminFailure(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await adminActions.createInvite(email);
      setEmail("");
      setError(null);
      await load();
    } catch (failure) {
      setError(adminFailure(failure));
    }
  };
  const withdraw = async (id: string) => {
    try {
      await adminActions.deleteInvite(id);
      await load();
    } catch (failure) {
      setError(adminFailure(failure));
    }
  };

  return (
    <section aria-label="Invitations" className="admin-section">
      <h2>Invitations</h2>
      <form className="inline-form" onSubmit={(event) => void create(event)}>
        <input
          type="email"
          aria-label="Invite email (optional)"
          placeholder="For one address (optional)"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit">Create invitation</button>
      </form>
      <FormError message={error} />
      {invites === null ? (
        <p className="muted">Loading invitations…</p>
      ) : invites.length === 0 ? (
        <p className="muted">No invitations yet.</p>
      ) : (
        <ul className="admin-list">
          {invites.map((invite) => (
            <li key={invite.id}>
              <input
                readOnly
                aria-label={`Invitation link${invite.email ? ` for ${invite.email}` : ""}`}
                value={`${window.location.origin}${invite.path}`}
                onFocus={(event) => event.currentTarget.select()}
              />
              <span className="muted">
                {invite.email ?? "anyone"} ·{" "}
                {invite.usedAt ? `used ${day(invite.usedAt)}` : `until ${day(invite.expiresAt)}`}
              </span>
              <button type="button" onClick={() => void withdraw(invite.id)}>
                Withdraw
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** `/admin`: running the instance. Anyone else is told why they cannot see it. */
export function AdminPage() {
  const [state, setState] = useState<"checking" | "open" | "signed-out" | "not-admin">("checking");
  useEffect(() => {
    document.title = "Admin — Atelier";
    adminActions.users("").then(
      () => setState("open"),
      (error) => setState(refusal(error) ?? "open"),
    );
  }, []);

  if (state === "checking") return <p className="centered muted">Checking your access…</p>;
  if (state !== "open")
    return (
      <main className="not-found">
        <h1>Admins only</h1>
        <p className="muted">
          {state === "signed-out"
            ? "Sign in with an admin account to run this server."
            : "Your account is not an admin of this server."}
        </p>
        <p className="not-found-links">
          <a href="/">Go to the canvas</a>
        </p>
      </main>
    );
  return (
    <main className="admin-page">
      <header className="top-bar">
        <a className="logo" href="/">
          Atelier
        </a>
        <h1>Admin</h1>
      </header>
      <Health />
      <Users />
      <Jobs />
      <Spend />
      <Invites />
    </main>
  );
}
