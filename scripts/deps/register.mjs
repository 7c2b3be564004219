/**
 * `node --import ./scripts/deps/register.mjs node_modules/.bin/depcruise …`: dependency-cruiser
 * parses TypeScript with swc (TypeScript 7 has no JS API), but it never tells swc a `.tsx`
 * file holds JSX. The hook hands dependency-cruiser a @swc/core that does (swc-tsx.mjs).
 */
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
