/** Fired by the selection toolbar's "Connect…" button; KeyboardWiring opens the dialog. */
export const CONNECT_EVENT = "atelier:connect";
