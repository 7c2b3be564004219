import type { AppFormField } from "@atelier/core";
import { type DraftValue, rollSeed } from "./form-values.ts";
import { MediaField } from "./MediaField.tsx";

interface Props {
  field: AppFormField;
  value: DraftValue | undefined;
  problem: string | undefined;
  onChange(value: DraftValue): void;
  onBusy(busy: boolean): void;
}

/** One input of the app form, drawn from the kind of value it takes. */
export function AppField({ field, value, problem, onChange, onBusy }: Props) {
  const { id, label, input } = field;
  const text = typeof value === "string" ? value : "";
  const problemId = problem ? `${id}-problem` : undefined;
  const note = problem ? (
    <p className="form-error" id={problemId}>
      {problem}
    </p>
  ) : null;

  switch (input.type) {
    case "media":
      return (
        <>
          <MediaField
            id={id}
            label={label}
            accept={input.accept}
            value={text}
            onChange={onChange}
            onBusy={onBusy}
          />
          {note}
        </>
      );
    case "flag":
      return (
        <div className="app-field">
          <label className="app-flag">
            <input
              type="checkbox"
              checked={value === true}
              onChange={(event) => onChange(event.currentTarget.checked)}
            />
            {label}
          </label>
          {note}
        </div>
      );
    case "select":
      return (
        <label className="app-field">
          <span className="app-field-label">{label}</span>
          <select value={text} onChange={(event) => onChange(event.currentTarget.value)}>
            {input.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          {note}
        </label>
      );
    case "number":
      return (
        <label className="app-field">
          <span className="app-field-label">
            {label} <small className="muted">{`${input.min} – ${input.max}`}</small>
          </span>
          <input
            type="number"
            inputMode={input.integer ? "numeric" : "decimal"}
            min={input.min}
            max={input.max}
            step={input.integer ? 1 : "any"}
            value={text}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problemId}
            onChange={(event) => onChange(event.currentTarget.value)}
          />
          {note}
        </label>
      );
    case "seed":
      return (
        <div className="app-field">
          <label className="app-field-label" htmlFor={`${id}-seed`}>
            {label}
          </label>
          <div className="app-seed">
            <input
              id={`${id}-seed`}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              placeholder="Random"
              value={text}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problemId}
              onChange={(event) => onChange(event.currentTarget.value)}
            />
            <button
              type="button"
              aria-label={`New random ${label}`}
              title="New random seed"
              onClick={() => onChange(rollSeed())}
            >
              🎲
            </button>
          </div>
          {note}
        </div>
      );
    case "text":
      return (
        <div className="app-field">
          <label className="app-field-label" htmlFor={`${id}-text`}>
            {label}
          </label>
          {input.multiline ? (
            <textarea
              id={`${id}-text`}
              rows={4}
              value={text}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problemId}
              onChange={(event) => onChange(event.currentTarget.value)}
            />
          ) : (
            <input
              id={`${id}-text`}
              type="text"
              value={text}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problemId}
              onChange={(event) => onChange(event.currentTarget.value)}
            />
          )}
          {note}
        </div>
      );
  }
}
