import { create } from "zustand";

/**
 * The workflow id the address names that could not be opened for this user (the editor then
 * shows the not-found page), or null. Set and cleared by url-sync.ts.
 */
export const useMissingWorkflow = create<{ id: string | null }>()(() => ({ id: null }));
