import { type ProviderReport, type ProvidersAnswer, providerName } from "@atelier/core";
import { useEffect, useState } from "react";
import { Modal } from "../../ui/Modal.tsx";
import { providersActions } from "./providers-actions.ts";

const STATE_TEXT: Record<ProviderReport["state"], string> = {
  ok: "Reachable",
  down: "Down",
  unchecked: "Not checked",
};

function ProviderSection({ provider }: { provider: ProviderReport }) {
  const runnable = provider.nodes.filter((node) => node.runnable).length;
  return (
    <section className="provider-report" aria-label={provider.name}>
      <h3>
        {provider.name}{" "}
        <span className={`provider-state provider-${provider.state}`}>
          {STATE_TEXT[provider.state]}
        </span>
      </h3>
      {provider.detail ? <p className="muted">{provider.detail}</p> : null}
      {provider.instances.length > 0 ? (
        <ul aria-label={`${provider.name} instances`}>
          {provider.instances.map((instance) => (
            <li key={instance.url}>
              {instance.url} — {instance.ok ? "reachable" : (instance.error ?? "unreachable")}
            </li>
          ))}
        </ul>
      ) : null}
      <details open={provider.state !== "unchecked"}>
        <summary>
          Runs {runnable} of {provider.nodes.length} nodes here
        </summary>
        <ul aria-label={`Nodes ${provider.name} runs`}>
          {provider.nodes.map((node) => (
            <li key={node.type}>
              {node.displayName}
              {node.runnable ? "" : ` — cannot run: ${node.missing ?? "unknown reason"}`}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

/**
 * Where runs go: each configured provider, whether it is reachable (where a free check
 * exists) and the nodes it runs; nodes with none run offline on this server.
 */
export function ProvidersDialog({ onClose }: { onClose(): void }) {
  const [answer, setAnswer] = useState<ProvidersAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    providersActions.load().then(
      (loaded) => current && setAnswer(loaded),
      (failure) => current && setError(providersActions.failure(failure)),
    );
    return () => {
      current = false;
    };
  }, []);

  return (
    <Modal label="Providers" onClose={onClose}>
      <h2>Providers</h2>
      {error ? (
        <p role="alert">{error}</p>
      ) : !answer ? (
        <p role="status">Checking the providers…</p>
      ) : (
        <>
          {answer.providers.length === 0 ? (
            <>
              <p className="muted">
                No provider is configured: every node runs offline on this server.
              </p>
              <p>
                To run the real models, the server's operator sets a provider's key in the server's
                environment (FAL_KEY, RUNWAY_API_KEY, LUMA_API_KEY, GEMINI_API_KEY, OPENAI_API_KEY,
                ELEVENLABS_API_KEY or REPLICATE_API_TOKEN; see .env.example) or points COMFYUI_URL
                at their own ComfyUI, then restarts it.
              </p>
            </>
          ) : (
            answer.providers.map((provider) => (
              <ProviderSection key={provider.id} provider={provider} />
            ))
          )}
          {answer.order.length > 0 ? (
            <p className="muted">
              Preferred where several can run a node: {answer.order.map(providerName).join(", ")}
            </p>
          ) : null}
          <p className="muted">Nodes no provider here can run use the offline provider.</p>
        </>
      )}
    </Modal>
  );
}
