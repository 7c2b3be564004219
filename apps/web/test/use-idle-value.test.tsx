import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useIdleValue } from "../src/ui/use-idle-value.ts";

describe("useIdleValue", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("holds a changed value until the browser is idle, and drops a superseded one", () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal("requestIdleCallback", (task: () => void) => idle.push(task));
    const { result, rerender } = renderHook(({ value }) => useIdleValue(value), {
      initialProps: { value: "saved:a" },
    });
    expect(result.current).toBe("saved:a");

    rerender({ value: "saved:b" });
    rerender({ value: "saved:c" });
    // Not idle yet: the open's task does not refresh the lists.
    expect(result.current).toBe("saved:a");

    // Latest first: a superseded callback ("saved:b") landing after it must not win.
    act(() => {
      for (const task of idle.splice(0).reverse()) task();
    });
    expect(result.current).toBe("saved:c");
  });
});
