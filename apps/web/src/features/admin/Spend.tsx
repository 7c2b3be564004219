import { type AdminSpend, dollars } from "@atelier/core";
import { useEffect, useState } from "react";
import { FormError } from "../../ui/FormError.tsx";
import { adminActions, adminFailure } from "./admin-actions.ts";

const unpricedOf = (count: number) => (count > 0 ? ` + ${count} unpriced` : "");

/** What the instance spent over the last 30 days: by provider and by user. */
export function Spend() {
  const [spend, setSpend] = useState<AdminSpend | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    adminActions.spend(30).then(setSpend, (failure) => setError(adminFailure(failure)));
  }, []);
  return (
    <section aria-label="Spend" className="admin-section">
      <h2>Spend, last 30 days</h2>
      <FormError message={error} />
      {spend === null ? (
        error ? null : (
          <p className="muted">Loading spend…</p>
        )
      ) : spend.byProvider.length === 0 ? (
        <p className="muted">No finished generations in the last 30 days.</p>
      ) : (
        <div className="admin-spend">
          <table className="admin-table" aria-label="Spend by provider">
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Generations</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {spend.byProvider.map((row) => (
                <tr key={row.provider}>
                  <td>{row.provider}</td>
                  <td>{row.jobs}</td>
                  <td>
                    {dollars(row.usd)}
                    {unpricedOf(row.unpriced)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="admin-table" aria-label="Spend by user">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Generations</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {spend.byUser.map((row) => (
                <tr key={row.userId}>
                  <td>{row.email ?? "Anonymous session"}</td>
                  <td>{row.jobs}</td>
                  <td>
                    {dollars(row.usd)}
                    {unpricedOf(row.unpriced)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">
        At the providers' published prices; generations without one are counted as unpriced.
      </p>
    </section>
  );
}
