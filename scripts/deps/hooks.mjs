/** Module hook: dependency-cruiser's `import("@swc/core")` gets ./swc-tsx.mjs instead. */
const WRAPPER = new URL("./swc-tsx.mjs", import.meta.url).href;

/** @type {import("node:module").ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "@swc/core" && context.parentURL?.includes("/dependency-cruiser/")) {
    return { url: WRAPPER, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
