import { dollars, getNodeDefinition, spendText, type Usage } from "@atelier/core";
import { useEffect, useState } from "react";
import { Modal } from "../../ui/Modal.tsx";
import { usageActions } from "./usage-actions.ts";

const RANGES = [7, 30, 90] as const;

const modelName = (type: string) => getNodeDefinition(type)?.displayName ?? type;

/** One budget's line: what is spent (and held by jobs on their way) of it. */
function BudgetLine({ label, budget }: { label: string; budget: Usage["budgets"]["daily"] }) {
  if (!budget) return <li>No {label} budget</li>;
  const left = Math.max(0, budget.limitUsd - budget.spentUsd);
  return (
    <li>
      <meter min={0} max={budget.limitUsd} value={Math.min(budget.spentUsd, budget.limitUsd)} />{" "}
      {dollars(budget.spentUsd)} of your {label} budget of {dollars(budget.limitUsd)} ·{" "}
      {dollars(left)} left
    </li>
  );
}

/**
 * Your spend: finished generations by day and model at the providers' published prices
 * (those without one counted apart), and your budgets.
 */
export function UsageDialog({ onClose }: { onClose(): void }) {
  const [days, setDays] = useState<number>(30);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setUsage(null);
    setError(null);
    usageActions.load(days).then(
      (answer) => current && setUsage(answer),
      (failure) => current && setError(usageActions.failure(failure)),
    );
    return () => {
      current = false;
    };
  }, [days]);

  const total = usage?.rows.reduce((sum, row) => sum + row.usd, 0) ?? 0;
  const unpriced = usage?.rows.reduce((sum, row) => sum + row.unpriced, 0) ?? 0;
  return (
    <Modal label="Usage" onClose={onClose}>
      <h2>Usage</h2>
      <label className="pref">
        Show the last
        <select
          value={days}
          onChange={(event) => setDays(Number(event.target.value))}
          aria-label="Days shown"
        >
          {RANGES.map((range) => (
            <option key={range} value={range}>
              {range} days
            </option>
          ))}
        </select>
      </label>
      {error ? (
        <p role="alert">{error}</p>
      ) : !usage ? (
        <p role="status">Loading your usage…</p>
      ) : (
        <>
          <ul className="usage-budgets" aria-label="Budgets">
            <BudgetLine label="daily" budget={usage.budgets.daily} />
            <BudgetLine label="monthly" budget={usage.budgets.monthly} />
          </ul>
          {usage.rows.length === 0 ? (
            <p className="muted">No finished generations in the last {usage.days} days.</p>
          ) : (
            <table className="usage-table" aria-label="Spend by day and model">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Model</th>
                  <th scope="col">Generations</th>
                  <th scope="col">Cost</th>
                </tr>
              </thead>
              <tbody>
                {usage.rows.map((row) => (
                  <tr key={`${row.day} ${row.model}`}>
                    <td>{row.day}</td>
                    <td>{modelName(row.model)}</td>
                    <td>{row.jobs}</td>
                    <td>{spendText(row.usd, row.unpriced)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={3}>
                    Total
                  </th>
                  <td>{spendText(total, unpriced)}</td>
                </tr>
              </tfoot>
            </table>
          )}
          <p className="muted">
            At the providers' published prices; a model without one is counted as unpriced. Days are
            UTC.
          </p>
        </>
      )}
      <div className="modal-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
