import type { AdminUser, UserLimits } from "@atelier/core";
import { type FormEvent, useEffect, useState } from "react";
import { FormError } from "../../ui/FormError.tsx";
import { Modal } from "../../ui/Modal.tsx";
import { adminActions, adminFailure } from "./admin-actions.ts";

const FIELDS: { key: keyof UserLimits; label: string; step: number; unit: string }[] = [
  { key: "generationsPerMinute", label: "Generations a minute", step: 1, unit: "" },
  { key: "concurrentJobs", label: "Jobs at once", step: 1, unit: "" },
  { key: "dailyBudgetUsd", label: "Daily budget", step: 0.01, unit: "US $" },
  { key: "monthlyBudgetUsd", label: "Monthly budget", step: 0.01, unit: "US $" },
];

/** A blank field is the instance's default (null). */
const parse = (text: string) => (text.trim() === "" ? null : Number(text));

/** One account's own quotas and budgets; a blank field keeps the instance's default. */
export function UserLimitsDialog({ user, onClose }: { user: AdminUser; onClose(): void }) {
  const [values, setValues] = useState<Record<keyof UserLimits, string> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    adminActions.limits(user.id).then(
      (limits) =>
        setValues({
          generationsPerMinute: String(limits.generationsPerMinute ?? ""),
          concurrentJobs: String(limits.concurrentJobs ?? ""),
          dailyBudgetUsd: String(limits.dailyBudgetUsd ?? ""),
          monthlyBudgetUsd: String(limits.monthlyBudgetUsd ?? ""),
        }),
      (failure) => setError(adminFailure(failure)),
    );
  }, [user.id]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    try {
      await adminActions.setLimits(user.id, {
        generationsPerMinute: parse(values.generationsPerMinute),
        concurrentJobs: parse(values.concurrentJobs),
        dailyBudgetUsd: parse(values.dailyBudgetUsd),
        monthlyBudgetUsd: parse(values.monthlyBudgetUsd),
      });
      setError(null);
      setSaved(true);
    } catch (failure) {
      setError(adminFailure(failure));
    }
  };

  return (
    <Modal label={`Limits for ${user.email}`} onClose={onClose}>
      <h2>Limits for {user.email}</h2>
      <p className="muted">Leave a field blank for this server's default.</p>
      {values === null ? (
        <p role="status">{error ? "" : "Loading…"}</p>
      ) : (
        <form onSubmit={(event) => void save(event)}>
          {FIELDS.map((field) => (
            <label key={field.key} className="pref">
              {field.label}
              <input
                type="number"
                min={field.step === 1 ? 1 : 0}
                step={field.step}
                value={values[field.key]}
                placeholder="default"
                onChange={(event) => {
                  setSaved(false);
                  setValues({ ...values, [field.key]: event.target.value });
                }}
              />
              {field.unit}
            </label>
          ))}
          <div className="modal-actions">
            <button type="submit">Save limits</button>
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
          {saved ? <p role="status">Limits saved</p> : null}
        </form>
      )}
      <FormError message={error} />
    </Modal>
  );
}
