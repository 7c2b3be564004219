/*
 * The free-spot search (core's findFreeSpot), loaded on the first add by place-node.ts rather
 * than with the editor: the first-load JavaScript is budgeted (DESIGN §7). It imports
 * nothing the editor has already loaded, so it stays one small chunk of its own.
 */
export { findFreeSpot, nodeBoxes } from "@atelier/core";
