/** @swc/core, with `tsx` switched on when parsing a `.tsx` file. */
import swc from "@swc/core";

/** swc.parseFileSync, parsing JSX in `.tsx` files. */
function parseFileSync(fileName, options) {
  return swc.parseFileSync(fileName, { ...options, tsx: fileName.endsWith(".tsx") });
}

export default { ...swc, version: swc.version, parseFileSync };
