import { memo } from "react";
import type { FieldSpec } from "./schema-fields.ts";

interface Props {
  field: FieldSpec;
  value: unknown;
  onChange(name: string, value: unknown): void;
}

/** One parameter control, chosen by the parameter's schema. */
export const ParamField = memo(function ParamField({ field, value, onChange }: Props) {
  const id = `param-${field.name}`;
  const label = (
    <span className="param-label" title={field.name}>
      {field.label}
    </span>
  );
  switch (field.kind) {
    case "textarea":
      return (
        <label className="param nodrag nowheel" htmlFor={id}>
          {label}
          <textarea
            id={id}
            aria-label={field.label}
            rows={3}
            value={String(value ?? "")}
            onChange={(event) => onChange(field.name, event.target.value)}
          />
        </label>
      );
    case "select":
      return (
        <label className="param nodrag">
          {label}
          <select
            aria-label={field.label}
            value={String(value ?? "")}
            onChange={(event) => onChange(field.name, event.target.value)}
          >
            {field.options?.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
      );
    case "toggle":
      return (
        <label className="param param-toggle nodrag">
          <input
            type="checkbox"
            aria-label={field.label}
            checked={Boolean(value)}
            onChange={(event) => onChange(field.name, event.target.checked)}
          />
          {label}
        </label>
      );
    case "number":
      return (
        <label className="param nodrag">
          {label}
          <span className="param-number">
            {field.min !== undefined && field.max !== undefined && field.max - field.min <= 1000 ? (
              <input
                type="range"
                aria-label={`${field.label} slider`}
                min={field.min}
                max={field.max}
                step={field.step}
                value={Number(value ?? 0)}
                onChange={(event) => onChange(field.name, Number(event.target.value))}
              />
            ) : null}
            <input
              type="number"
              aria-label={field.label}
              min={field.min}
              max={field.max}
              step={field.step}
              value={Number(value ?? 0)}
              onChange={(event) => onChange(field.name, Number(event.target.value))}
            />
          </span>
        </label>
      );
    case "seed":
      return (
        <label className="param nodrag">
          {label}
          <span className="param-number">
            <input
              type="number"
              aria-label={field.label}
              placeholder="random"
              value={value === null || value === undefined ? "" : Number(value)}
              onChange={(event) =>
                onChange(field.name, event.target.value === "" ? null : Number(event.target.value))
              }
            />
            <button
              type="button"
              aria-label="Random seed"
              title="Random seed"
              onClick={() => onChange(field.name, Math.floor(Math.random() * 4_294_967_295))}
            >
              🎲
            </button>
          </span>
        </label>
      );
    default:
      return (
        <label className="param nodrag">
          {label}
          <input
            type="text"
            aria-label={field.label}
            value={String(value ?? "")}
            onChange={(event) => onChange(field.name, event.target.value)}
          />
        </label>
      );
  }
});
