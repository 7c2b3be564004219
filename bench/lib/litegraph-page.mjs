import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { openPage } from "./browser.mjs";
import { pathDrag } from "./canvas-driver.mjs";
import { freePort } from "./server.mjs";

/**
 * A litegraph (ComfyUI's canvas, `@comfyorg/litegraph`) page for same-run comparisons: a
 * static server on 127.0.0.1 serving its ES build and CSS, a page that builds a generated
 * graph in it, and the drag of canvas-driver's path on one of its nodes.
 */

// The package's require entry (dist/litegraph.umd.js) sits beside the ES build and the CSS.
const DIST = dirname(createRequire(import.meta.url).resolve("@comfyorg/litegraph"));

const HTML = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/litegraph.css">
<style>html,body{margin:0;height:100%;overflow:hidden;background:#222}canvas{display:block}</style>
</head><body><canvas id="canvas" width="1280" height="800"></canvas>
<script type="module">import * as LG from "/litegraph.es.js"; window.LG = LG;</script>
</body></html>`;

/** Serves the page and litegraph's files; `stop()` closes it. */
export async function startLitegraphServer() {
  const files = {
    "/": ["text/html", HTML],
    "/litegraph.es.js": ["text/javascript", readFileSync(join(DIST, "litegraph.es.js"))],
    "/litegraph.css": ["text/css", readFileSync(join(DIST, "css/litegraph.css"))],
  };
  const server = createServer((request, response) => {
    const file = files[new URL(request.url, "http://x").pathname];
    response.writeHead(file ? 200 : 404, { "content-type": file?.[0] ?? "text/plain" });
    response.end(file?.[1] ?? "not found");
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Runs in the page: the fixture as litegraph nodes (2 inputs, 1 output, a text widget
 * holding the prompt) at the fixture's positions, its links, default rendering and LOD,
 * fitted so every node is in view. A litegraph input holds one link, while the fixture
 * sends several wires into some image inputs: such a wire goes to the node's other input
 * if free, else to the next node (by index, so nearby) with a free input, keeping the
 * node and link counts and the wires' lengths close to the fixture's.
 */
function buildGraph({ nodes, edges, padding, minScale }) {
  const { LiteGraph, LGraph, LGraphCanvas, LGraphNode } = window.LG;
  class BenchNode extends LGraphNode {
    constructor(title) {
      super(title);
      this.addInput("prompt", "*");
      this.addInput("image", "*");
      this.addOutput("out", "*");
      this.addWidget("text", "prompt", "", () => undefined);
    }
  }
  LiteGraph.registerNodeType("bench/node", BenchNode);
  const graph = new LGraph();
  const element = document.getElementById("canvas");
  const canvas = new LGraphCanvas(element, graph);
  const list = [];
  const byId = new Map();
  const indexOf = new Map();
  for (const fixtureNode of nodes) {
    const node = LiteGraph.createNode("bench/node", fixtureNode.data.label);
    node.pos = [fixtureNode.position.x, fixtureNode.position.y];
    node.widgets[0].value = Object.values(fixtureNode.data.inputValues)[0]?.value ?? "";
    graph.add(node);
    indexOf.set(fixtureNode.id, list.length);
    list.push(node);
    byId.set(fixtureNode.id, node);
  }
  let moved = 0;
  for (const edge of edges) {
    const source = byId.get(edge.source);
    let index = indexOf.get(edge.target);
    let slot = edge.targetHandle === "prompt" ? 0 : 1;
    if (list[index].inputs[slot].link != null) {
      moved++;
      slot = 1 - slot;
      while (list[index].inputs[slot].link != null || list[index] === source) {
        if (list[index].inputs[1 - slot].link == null && list[index] !== source) slot = 1 - slot;
        else index = (index + 1) % list.length;
      }
    }
    source.connect(0, list[index], slot);
  }
  // The node with its title bar (boundingRect is only kept up to date by drawing).
  const title = LiteGraph.NODE_TITLE_HEIGHT;
  const rect = (node) => [node.pos[0], node.pos[1] - title, node.size[0], node.size[1] + title];
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const node of list) {
    const [x, y, width, height] = rect(node);
    [minX, minY] = [Math.min(minX, x), Math.min(minY, y)];
    [maxX, maxY] = [Math.max(maxX, x + width), Math.max(maxY, y + height)];
  }
  canvas.ds.fitToBounds([minX, minY, maxX - minX, maxY - minY], { zoom: 1 / (1 + 2 * padding) });
  // No further out than Atelier's canvas goes (its minZoom), centred as its fitView centres:
  // both engines then show the same part of a graph of thousands.
  if (canvas.ds.scale < minScale) {
    canvas.ds.scale = minScale;
    canvas.ds.offset[0] = element.width / (2 * minScale) - (minX + maxX) / 2;
    canvas.ds.offset[1] = element.height / (2 * minScale) - (minY + maxY) / 2;
  }
  canvas.setDirty(true, true);
  const inView = list.filter((node) => {
    const [x, y, width, height] = rect(node);
    const [left, top] = canvas.ds.convertOffsetToCanvas([x, y]);
    const [right, bottom] = canvas.ds.convertOffsetToCanvas([x + width, y + height]);
    return left >= 0 && top >= 0 && right <= element.width && bottom <= element.height;
  }).length;
  window.__lg = { canvas, byId, graph };
  const links = list.reduce(
    (sum, node) => sum + node.inputs.filter((i) => i.link != null).length,
    0,
  );
  return { nodes: list.length, links, moved, inView, scale: canvas.ds.scale };
}

/** Opens the page for `count` nodes of the fixture; answers the page and what it holds. */
export async function openLitegraph(browser, url, fixture, count) {
  const opened = await openPage(browser);
  await opened.page.goto(url);
  await opened.page.waitForFunction(() => window.LG?.LGraphCanvas, null, { timeout: 30_000 });
  // React Flow's fitView pads by 10 % of the view on each side; Canvas.tsx's minZoom is 0.05.
  const shown = await opened.page.evaluate(buildGraph, {
    ...fixture(count),
    padding: 0.1,
    minScale: 0.05,
  });
  await pause(opened.page, true);
  return { ...opened, ...shown, count };
}

/** Idle pages stop their render loop so that they take no frames from the measured one. */
const pause = (page, paused) =>
  page.evaluate((value) => {
    window.__lg.canvas.pause_rendering = value;
    window.__lg.canvas.setDirty(true, true);
  }, paused);

/**
 * Where to grab node `id`: the middle of its title bar on screen, from the canvas
 * transform (ds.scale, ds.offset). When zoomed out so far that the bar is under a pixel,
 * the whole pixel nearest it whose graph point is on the bar (or on the node).
 */
const grabPoint = (page, id) =>
  page.evaluate((nodeId) => {
    const { canvas, byId } = window.__lg;
    const node = byId.get(nodeId);
    const title = window.LG.LiteGraph.NODE_TITLE_HEIGHT;
    const box = canvas.canvas.getBoundingClientRect();
    const [x, y] = canvas.ds.convertOffsetToCanvas([
      node.pos[0] + node.size[0] / 2,
      node.pos[1] - title / 2,
    ]);
    const onBar = (px, py) => {
      const [gx, gy] = canvas.ds.convertCanvasToOffset([px, py]);
      const inside = gx > node.pos[0] && gx < node.pos[0] + node.size[0];
      return inside && gy >= node.pos[1] - title && gy < node.pos[1];
    };
    for (let dy = 0; dy <= 3; dy++)
      for (const py of [Math.round(y) - dy, Math.round(y) + dy])
        if (onBar(Math.round(x), py)) return { x: box.left + Math.round(x), y: box.top + py };
    return { x: box.left + x, y: box.top + y };
  }, id);

/** Counts frames in which the node's position changed (proof that the drag moved it). */
const watchNode = (page, id) =>
  page.evaluate((nodeId) => {
    const node = window.__lg.byId.get(nodeId);
    const watch = { moves: 0, run: true, last: `${node.pos}` };
    window.__lg.watch = watch;
    const tick = () => {
      if (!watch.run) return;
      if (`${node.pos}` !== watch.last) {
        watch.moves++;
        watch.last = `${node.pos}`;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, id);
const unwatchNode = (page) =>
  page.evaluate(() => {
    window.__lg.watch.run = false;
    return window.__lg.watch.moves;
  });

/** canvas-driver's timed drag (same path, 8 ms moves, `ms` long) on node `id`. */
export async function litegraphDrag(page, id, ms = 3000) {
  await pause(page, false);
  try {
    const start = await grabPoint(page, id);
    return await pathDrag(page, start, {
      label: `litegraph ${id}`,
      watch: () => watchNode(page, id),
      unwatch: () => unwatchNode(page),
      ms,
    });
  } finally {
    await pause(page, true);
  }
}
