import { afterEach, describe, expect, it } from "vitest";
import { usePreferences } from "../src/features/preferences/store.ts";

const stored = () =>
  (
    JSON.parse(localStorage.getItem("atelier.preferences") ?? "{}") as {
      state?: { recentWorkflows?: { id: string }[] };
    }
  ).state?.recentWorkflows?.map((entry) => entry.id);

describe("recent workflows (SPEC §3 preferences, §9: 10 kept)", () => {
  afterEach(() => usePreferences.setState({ recentWorkflows: [] }));

  it("keeps the 10 latest, newest first, each workflow once, in the stored preferences", () => {
    const { rememberRecent } = usePreferences.getState();
    for (let index = 1; index <= 12; index++)
      rememberRecent({ id: `w${index}`, name: `W${index}`, accessedAt: index });
    rememberRecent({ id: "w5", name: "W5 renamed", accessedAt: 13 });
    const ids = usePreferences.getState().recentWorkflows.map((entry) => entry.id);
    expect(ids).toEqual(["w5", "w12", "w11", "w10", "w9", "w8", "w7", "w6", "w4", "w3"]);
    expect(usePreferences.getState().recentWorkflows[0]?.name).toBe("W5 renamed");
    expect(stored()).toEqual(ids);
  });

  it("forgets a deleted workflow, and resetting the preferences keeps the list", () => {
    const { rememberRecent, forgetRecent, resetPreferences, setPreference } =
      usePreferences.getState();
    rememberRecent({ id: "a", name: "A", accessedAt: 1 });
    rememberRecent({ id: "b", name: "B", accessedAt: 2 });
    forgetRecent("a");
    setPreference("showMinimap", false);
    resetPreferences();
    expect(usePreferences.getState().showMinimap).toBe(true);
    expect(usePreferences.getState().recentWorkflows.map((entry) => entry.id)).toEqual(["b"]);
  });
});
