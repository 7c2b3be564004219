/** Every row of the benchmark issue: the ID, what it measures and its target, for the table. */
export const CATALOGUE = {
  C1: [
    ["C1/500", "drag FPS, 500 nodes all in view ÷ 1 node", "≥ 0.95"],
    ["C1/1000", "drag FPS, 1000 nodes all in view ÷ 1 node", "≥ 0.9"],
    ["C1/2000", "drag FPS, 2000 nodes all in view ÷ 1 node", "≥ 0.8"],
  ],
  C2: [["C2", "drag FPS at working zoom, 2000 nodes ÷ 100 nodes", "≥ 0.97"]],
  C3: [
    ["C3/nodes", "node renders per drag frame, 1000 nodes", "≤ 1"],
    ["C3/edges", "edge renders per drag frame, 1000 nodes", "≤ node's edges"],
    ["C3/commits", "React commits per drag frame, 1000 nodes", "≤ 1"],
    ["C3/longtasks", "long tasks during a 60-frame drag, 1000 nodes", "≤ 0"],
  ],
  C4: [["C4", "node renders per progress event, 200 running nodes at 10 Hz", "≤ 1"]],
  C5: [
    ["C5/drag", "drag FPS, 10,000 nodes all in view, wires drawn ÷ 1 node", "≥ 0.95"],
    ["C5/heap", "JS heap after opening 10,000 nodes ÷ workflow JSON bytes", "≤ 4"],
  ],
  P1: [
    ["P1/1000", "drag ratio Atelier ÷ litegraph, 1000 nodes", "≥ 1.6"],
    ["P1/2000", "drag ratio Atelier ÷ litegraph, 2000 nodes", "≥ 3"],
    ["P1/10000", "drag ratio Atelier ÷ litegraph, 10,000 nodes", "≥ 10"],
  ],
  L1: [
    ["L1", "open 5 MB workflow to interactive ÷ (fetch + JSON.parse)", "≤ 2"],
    ["L1/warm", "warm open from the device copy ÷ (IndexedDB read + parse)", "≤ 2"],
  ],
  L2: [["L2", "open 10 MB ÷ open 5 MB; no task ≥ 50 ms in a warm open", "≤ 2.1"]],
  S1: [
    ["S1/pglite", "save 5 MB (PGlite) ÷ its floor (chunk rows rewritten + parse)", "≤ 2"],
    ["S1/postgres", "save 5 MB (PostgreSQL) ÷ its floor (chunk rows rewritten + parse)", "≤ 2"],
  ],
  S2: [["S2", "chunks rewritten after editing one prompt, 5 MB", "≤ 1"]],
  S3: [["S3", "save after a one-prompt edit, 5 MB ÷ 50 KB workflow", "≤ 1.5"]],
  Q1: [
    ["Q1/1000", "status p99, 1000 pollers ÷ bare node:http", "≤ 2"],
    ["Q1/5000", "status p99, 5000 pollers ÷ bare node:http", "≤ 2"],
  ],
  Q2: [
    ["Q2/webhook", "provider status requests per 60 s job, webhook", "≤ 1"],
    ["Q2/polling", "provider status requests per 60 s job, polling", "≤ 8"],
  ],
  Q3: [["Q3", "browser requests/min, idle tab, 20 running nodes", "≤ 4"]],
  Q4: [["Q4", "status p99 while an anonymous session floods generate ÷ idle", "≤ 1.2"]],
  R1: [
    ["R1/pglite", "orchestration per node, 100-step run of instant jobs (PGlite)", "≤ 20"],
    ["R1/postgres", "orchestration per node, 100-step run of instant jobs (PostgreSQL)", "≤ 20"],
  ],
  R2: [["R2", "status p99 while 50 users run 10-step workflows ÷ idle", "≤ 1.5"]],
  F1: [["F1", "initial JS of the editor, gzipped", "≤ 160"]],
  F2: [
    ["F2/first", "JS bytes on the wire, first visit (br, gzip), KB", "≤ 170"],
    ["F2/repeat", "JS bytes on the wire, repeat visit", "≤ 0"],
  ],
  N1: [["N1", "open 5 MB at 50 Mbit/s, 40 ms RTT ÷ its raw bytes on that link", "≤ 0.5"]],
};

export const GROUPS = Object.keys(CATALOGUE);
