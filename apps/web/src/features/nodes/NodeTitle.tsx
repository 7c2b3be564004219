import { memo, useState } from "react";
import { useDocumentStore } from "../document/context.tsx";

/** Longest node name kept; a name is a caption, not a note. */
export const NODE_LABEL_MAX = 80;

/**
 * A node's name in its header. Double-click (or Enter when focused) to rename; Enter or
 * leaving the field keeps it, Escape cancels, an empty name goes back to the type's name.
 * Rendered as text only.
 */
export const NodeTitle = memo(function NodeTitle({
  id,
  label,
  typeName,
  showLabel,
}: {
  id: string;
  label: string | undefined;
  typeName: string;
  showLabel: boolean;
}) {
  const documents = useDocumentStore();
  const [editing, setEditing] = useState(false);
  const shown = showLabel ? (label ?? typeName) : typeName;

  if (editing) {
    const commit = (value: string) => {
      setEditing(false);
      const name = value.trim().slice(0, NODE_LABEL_MAX);
      if (name !== (label ?? typeName))
        documents
          .getState()
          .updateNodeData(id, { label: name && name !== typeName ? name : undefined });
    };
    return (
      <input
        className="node-title-input nodrag"
        aria-label="Node name"
        defaultValue={label ?? typeName}
        maxLength={NODE_LABEL_MAX}
        // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
        autoFocus
        onBlur={(event) => commit(event.currentTarget.value)}
        onKeyDown={(event) => {
          event.stopPropagation();
          if (event.key === "Enter") commit(event.currentTarget.value);
          if (event.key === "Escape") setEditing(false);
        }}
      />
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a heading-like caption that renames on double-click
    <span
      className="node-title"
      role="button"
      tabIndex={0}
      title="Double-click to rename"
      onDoubleClick={(event) => {
        event.stopPropagation();
        setEditing(true);
      }}
      onKeyDown={(event) => {
        if (event.key === "Enter" || event.key === "F2") setEditing(true);
      }}
    >
      {shown}
      {showLabel && label && label !== typeName ? <small> · {typeName}</small> : null}
    </span>
  );
});
