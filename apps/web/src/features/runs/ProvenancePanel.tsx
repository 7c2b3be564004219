import { formatUsd, type Provenance } from "@atelier/core";
import { useState } from "react";
import { useDocumentStore } from "../document/context.tsx";
import { useRunner } from "./context.tsx";
import { loadProvenance, provenanceSource, rerunExactly } from "./provenance-actions.ts";
import "./provenance.css";

type State = { phase: "closed" | "loading" | "none" } | { phase: "shown"; provenance: Provenance };

const show = (value: unknown) => (value === null || value === undefined ? "—" : String(value));

function Details({ provenance }: { provenance: Provenance }) {
  const parameters = Object.entries(provenance.parameters ?? {});
  const created = provenance.createdAt ? new Date(provenance.createdAt) : null;
  return (
    <dl className="provenance-fields">
      <dt>Model</dt>
      <dd>{show(provenance.model)}</dd>
      <dt>Provider</dt>
      <dd>{show(provenance.provider)}</dd>
      <dt>Seed</dt>
      <dd>{show(provenance.seed)}</dd>
      <dt>Cost</dt>
      <dd>{formatUsd(provenance.cost)}</dd>
      <dt>Prompt</dt>
      <dd className="provenance-prompt">{show(provenance.prompt)}</dd>
      <dt>Parameters</dt>
      <dd>
        {parameters.length === 0 ? (
          "—"
        ) : (
          <ul className="provenance-parameters">
            {parameters.map(([name, value]) => (
              <li key={name}>
                {name}: {typeof value === "object" ? JSON.stringify(value) : String(value)}
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>Created</dt>
      <dd>
        {created && !Number.isNaN(created.getTime()) ? (
          <time dateTime={provenance.createdAt ?? undefined}>{created.toLocaleString()}</time>
        ) : (
          "—"
        )}
      </dd>
    </dl>
  );
}

/**
 * "How it was made" under a node's result: read from the file when opened (loaded with the
 * first result, not with the editor), with "Re-run exactly".
 */
export default function ProvenancePanel({
  id,
  type,
  outputs,
}: {
  id: string;
  type: string;
  outputs: Record<string, unknown> | undefined;
}) {
  const documents = useDocumentStore();
  const runner = useRunner();
  const [state, setState] = useState<State>({ phase: "closed" });
  const source = provenanceSource(outputs);
  if (!source) return null;
  const open = () => {
    if (state.phase !== "closed") return;
    setState({ phase: "loading" });
    loadProvenance(source).then(
      (provenance) => setState(provenance ? { phase: "shown", provenance } : { phase: "none" }),
      () => setState({ phase: "none" }),
    );
  };
  return (
    <details
      className="provenance nodrag"
      onToggle={(event) => {
        if (event.currentTarget.open) open();
      }}
    >
      <summary>How it was made</summary>
      {state.phase === "loading" ? <p className="muted">Reading…</p> : null}
      {state.phase === "none" ? (
        <p className="muted">This file does not say how it was made</p>
      ) : null}
      {state.phase === "shown" ? (
        <>
          <Details provenance={state.provenance} />
          <button
            type="button"
            onClick={() => rerunExactly(documents, runner, id, state.provenance)}
            disabled={state.provenance.model !== type}
          >
            Re-run exactly
          </button>
        </>
      ) : null}
    </details>
  );
}
