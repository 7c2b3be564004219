import { type AdminSpend, spendText } from "@atelier/core";
import { FormError } from "../../ui/FormError.tsx";
import { adminActions } from "./admin-actions.ts";
import { useAdminRead } from "./use-admin-read.ts";

const lastMonth = () => adminActions.spend(30);

interface SpendRow {
  key: string;
  who: string;
  jobs: number;
  usd: number;
  unpriced: number;
}

/** One breakdown of the spend: who (a provider, a user), generations and cost. */
function SpendTable({
  label,
  whoTitle,
  rows,
}: {
  label: string;
  whoTitle: string;
  rows: SpendRow[];
}) {
  return (
    <table className="admin-table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">{whoTitle}</th>
          <th scope="col">Generations</th>
          <th scope="col">Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <td>{row.who}</td>
            <td>{row.jobs}</td>
            <td>{spendText(row.usd, row.unpriced)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the instance spent over the last 30 days: by provider and by user. */
export function Spend() {
  const { data: spend, error } = useAdminRead<AdminSpend>(lastMonth);
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
          <SpendTable
            label="Spend by provider"
            whoTitle="Provider"
            rows={spend.byProvider.map((row) => ({ ...row, key: row.provider, who: row.provider }))}
          />
          <SpendTable
            label="Spend by user"
            whoTitle="User"
            rows={spend.byUser.map((row) => ({
              ...row,
              key: row.userId,
              who: row.email ?? "Anonymous session",
            }))}
          />
        </div>
      )}
      <p className="muted">
        At the providers' published prices; generations without one are counted as unpriced.
      </p>
    </section>
  );
}
