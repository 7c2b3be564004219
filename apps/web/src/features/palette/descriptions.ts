import { useEffect, useState } from "react";

type Descriptions = Readonly<Record<string, string>>;

const NONE: Descriptions = {};
let table: Descriptions | null = null;
let loading: Promise<Descriptions> | null = null;

/**
 * Node descriptions (palette tooltips, search by description) draw nothing on the first
 * paint, so they load just after it rather than with the editor (DESIGN §7).
 */
export function loadDescriptions(): Promise<Descriptions> {
  loading ??= import("@atelier/core/descriptions").then((module) => {
    table = module.NODE_DESCRIPTIONS;
    return table;
  });
  return loading;
}

/** The descriptions, empty until loaded (the caller renders again when they arrive). */
export function useDescriptions(): Descriptions {
  const [loaded, setLoaded] = useState(table);
  useEffect(() => {
    if (!loaded) void loadDescriptions().then(setLoaded);
  }, [loaded]);
  return loaded ?? NONE;
}
