import { create } from "zustand";

/** The cost question on screen, if any (cost-prompt.ts asks it): its words and the answer. */
export const useCostPrompt = create<{
  pending: { message: string; answer(run: boolean): void } | null;
}>()(() => ({ pending: null }));
