import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useIdleRevision } from "../src/ui/use-idle-revision.ts";

describe("useIdleRevision", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function render() {
    const idle: (() => void)[] = [];
    vi.stubGlobal("requestIdleCallback", (task: () => void) => idle.push(task));
    const hook = renderHook(({ value }) => useIdleRevision(value), {
      initialProps: { value: "idle:a" },
    });
    const runIdle = () =>
      act(() => {
        // Latest first: a superseded callback landing after it must not count twice.
        for (const task of idle.splice(0).reverse()) task();
      });
    return { ...hook, idle, runIdle };
  }

  it("counts a change once the browser is idle, once for several changes before it", () => {
    const { result, rerender, idle, runIdle } = render();
    expect(result.current).toBe(0);
    // The first value schedules nothing: the lists were loaded for it.
    expect(idle).toHaveLength(0);

    rerender({ value: "saving:a" });
    rerender({ value: "saved:a" });
    // Not idle yet: the open's or save's own task does not refresh the lists.
    expect(result.current).toBe(0);
    runIdle();
    expect(result.current).toBe(1);

    rerender({ value: "idle:b" });
    runIdle();
    expect(result.current).toBe(2);
  });

  it("counts a value that changed and changed back before the browser was idle", () => {
    const { result, rerender, runIdle } = render();
    // A save that ended and whose "saved" gave way to idle before an idle callback ran.
    rerender({ value: "saving:a" });
    rerender({ value: "saved:a" });
    rerender({ value: "idle:a" });
    runIdle();
    expect(result.current).toBe(1);
  });
});
