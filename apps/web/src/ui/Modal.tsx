import { type ReactNode, useEffect, useRef } from "react";

interface Props {
  label: string;
  onClose(): void;
  children: ReactNode;
}

/** A native modal dialog: focus is trapped, Escape and a click outside close it. */
export function Modal({ label, onClose, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="modal"
      aria-label={label}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      {children}
      {/* Phones only (styles.css): the dialog is a bottom sheet, closed from its corner. */}
      <button type="button" className="sheet-close" aria-label="Close" onClick={onClose}>
        ✕
      </button>
    </dialog>
  );
}
