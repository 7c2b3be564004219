import { getNodeDefinition } from "@atelier/core";
import { memo } from "react";
import { useDocument } from "../document/context.tsx";
import { ParamField } from "./ParamField.tsx";
import type { FieldSpec } from "./schema-fields.ts";
import { type WiredValue, wiredKey } from "./wired-value.ts";

interface Props {
  id: string;
  type: string;
  field: FieldSpec;
  value: unknown;
  onChange(name: string, value: unknown): void;
}

/**
 * A parameter that an input port of the same name can feed (a prompt, a seed): while a wire
 * feeds it, what arrives and from where, instead of an editor whose value the run would
 * ignore; unplugged, the editor again with the value typed before.
 */
export const WiredParam = memo(function WiredParam({ id, type, field, value, onChange }: Props) {
  const definition = getNodeDefinition(type);
  const port = definition?.inputs.find((input) => input.id === field.name);
  const key = useDocument((state) =>
    port ? wiredKey(state, id, port.id, port.type, definition?.inputs[0]?.id) : "",
  );
  if (!key) return <ParamField field={field} value={value} onChange={onChange} />;
  const wired = JSON.parse(key) as WiredValue;
  return (
    <fieldset className="param param-wired" aria-label={`${field.label} (wired)`}>
      <legend className="param-label">{field.label}</legend>
      <span className="wired-from">from {wired.from}</span>
      {wired.value ? (
        <p className="wired-value">{wired.value}</p>
      ) : (
        <p className="wired-value muted">Nothing yet: {wired.from} has no value to send</p>
      )}
    </fieldset>
  );
});
