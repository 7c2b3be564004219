import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startAutosave } from "../src/features/persistence/autosave.ts";
import type { Persistence } from "../src/features/persistence/persistence.ts";
import { usePreferences } from "../src/features/preferences/store.ts";
import { edited } from "../src/features/workspace/document-status.ts";
import { useWorkspace } from "../src/features/workspace/store.ts";

describe("autosave", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("saves unsaved edits every autoSaveInterval minutes, only while enabled", () => {
    const save = vi.fn(async () => undefined);
    const stop = startAutosave({ save } as unknown as Persistence);
    edited();
    vi.advanceTimersByTime(10 * 60_000);
    expect(save).not.toHaveBeenCalled(); // off by default (SPEC §9)

    usePreferences.getState().setPreference("autoSaveEnabled", true);
    vi.advanceTimersByTime(5 * 60_000 - 1);
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(save).toHaveBeenCalledTimes(1);

    useWorkspace.setState({ dirty: false });
    vi.advanceTimersByTime(5 * 60_000);
    expect(save).toHaveBeenCalledTimes(1);

    usePreferences.getState().setPreference("autoSaveInterval", 1);
    edited();
    vi.advanceTimersByTime(60_000);
    expect(save).toHaveBeenCalledTimes(2);
    stop();
    usePreferences.getState().resetPreferences();
  });
});
