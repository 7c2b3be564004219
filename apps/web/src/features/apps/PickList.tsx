import { APP_LIMITS } from "@atelier/core";
import type { NodeCandidate, Picks } from "./publish-candidates.ts";

interface Props {
  candidates: readonly NodeCandidate[];
  picks: Picks;
  onChange(picks: Picks): void;
}

interface OptionProps {
  id: string;
  title: string;
  suggested: string;
  /** The label chosen, or undefined when not picked. */
  label: string | undefined;
  note?: string;
  onPick(picked: boolean): void;
  onLabel(label: string): void;
}

/** One input or output the owner may pick, with the label the app will show. */
function Option({ id, title, suggested, label, note, onPick, onLabel }: OptionProps) {
  const picked = label !== undefined;
  return (
    <div className="publish-option">
      <input
        type="checkbox"
        id={`pick-${id}`}
        checked={picked}
        onChange={(event) => onPick(event.currentTarget.checked)}
      />
      <label htmlFor={`pick-${id}`}>
        {title}
        {note ? <small className="muted"> · {note}</small> : null}
      </label>
      {picked ? (
        <input
          type="text"
          aria-label={`Label for ${title}`}
          placeholder={suggested}
          maxLength={APP_LIMITS.labelLength}
          value={label}
          onChange={(event) => onLabel(event.currentTarget.value)}
        />
      ) : (
        <span />
      )}
    </div>
  );
}

const without = (record: Record<string, string>, key: string) => {
  const { [key]: _gone, ...rest } = record;
  return rest;
};

/** The inputs a visitor fills in (by node) and the results shown. */
export function PickList({ candidates, picks, onChange }: Props) {
  const setField = (id: string, label: string | null) =>
    onChange({
      ...picks,
      fields: label === null ? without(picks.fields, id) : { ...picks.fields, [id]: label },
    });
  const setOutput = (id: string, label: string | null) =>
    onChange({
      ...picks,
      outputs: label === null ? without(picks.outputs, id) : { ...picks.outputs, [id]: label },
    });
  const inputs = candidates.filter((candidate) => candidate.media || candidate.params.length > 0);
  const outputs = candidates.filter((candidate) => candidate.output);

  return (
    <>
      <fieldset>
        <legend>Inputs people fill in</legend>
        <div className="publish-candidates">
          {inputs.length === 0 ? <p className="muted">This workflow has no settings.</p> : null}
          {inputs.map((candidate) => (
            <fieldset key={candidate.nodeId} className="publish-node">
              <legend>{candidate.name}</legend>
              {candidate.media ? (
                <Option
                  id={candidate.media.id}
                  title="Uploaded file"
                  note="visitors upload their own"
                  suggested={candidate.media.label}
                  label={picks.fields[candidate.media.id]}
                  onPick={(on) =>
                    setField(candidate.media?.id ?? "", on ? (candidate.media?.label ?? "") : null)
                  }
                  onLabel={(label) => setField(candidate.media?.id ?? "", label)}
                />
              ) : null}
              {candidate.params.map((param) => (
                <Option
                  key={param.id}
                  id={param.id}
                  title={param.label}
                  {...(param.wired ? { note: "set by a wire" } : {})}
                  suggested={param.label}
                  label={picks.fields[param.id]}
                  onPick={(on) => setField(param.id, on ? param.label : null)}
                  onLabel={(label) => setField(param.id, label)}
                />
              ))}
            </fieldset>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Results shown</legend>
        <div className="publish-candidates">
          {outputs.length === 0 ? (
            <p className="muted">This workflow has no node that makes a result.</p>
          ) : null}
          {outputs.map((candidate) => (
            <Option
              key={candidate.nodeId}
              id={`out-${candidate.nodeId}`}
              title={candidate.name}
              suggested={candidate.output?.label ?? candidate.name}
              label={picks.outputs[candidate.nodeId]}
              onPick={(on) => setOutput(candidate.nodeId, on ? candidate.name : null)}
              onLabel={(label) => setOutput(candidate.nodeId, label)}
            />
          ))}
        </div>
      </fieldset>
    </>
  );
}
