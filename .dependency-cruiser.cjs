/**
 * Import rules (DESIGN §2, docs/architecture.md), checked by `npm run deps` inside `npm test`.
 * Parsed with swc (TypeScript 7 has no JS API); type-only imports count too.
 * @type {import("dependency-cruiser").IConfiguration}
 */
const SERVER = "^apps/server/src/";
const WEB = "^apps/web/src/";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import cycles anywhere (type-only imports included).",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-imports-only-zod",
      severity: "error",
      comment: "@atelier/core is pure TypeScript + zod: no other package, no node:*, no apps.",
      from: { path: "^packages/core/src/" },
      to: { pathNot: ["^packages/core/src/", "(^|/)node_modules/zod/"] },
    },
    {
      name: "web-not-server",
      severity: "error",
      comment: "The web app and the server share only @atelier/core.",
      from: { path: "^apps/web/" },
      to: { path: "^apps/server/" },
    },
    {
      name: "server-not-web",
      severity: "error",
      comment: "The web app and the server share only @atelier/core.",
      from: { path: "^apps/server/" },
      to: { path: "^apps/web/" },
    },
    // Server layers: routes → policy/commands → jobs → providers/storage/db.
    {
      name: "server-lower-layers-not-upper",
      severity: "error",
      comment: "providers/, storage/ and db/ sit below routes/, policy/, commands/ and jobs/.",
      from: { path: `${SERVER}(providers|storage|db)/` },
      to: { path: `${SERVER}(routes|policy|commands|jobs)/` },
    },
    {
      name: "server-jobs-not-commands",
      severity: "error",
      comment: "jobs/ sit below commands/ (and routes/, policy/).",
      from: { path: `${SERVER}jobs/` },
      to: { path: `${SERVER}(commands|routes|policy)/` },
    },
    {
      name: "server-commands-not-http",
      severity: "error",
      comment: "commands/ know nothing of HTTP: not routes/ nor http/ (its errors).",
      from: { path: `${SERVER}commands/` },
      to: { path: `${SERVER}(routes|http)/` },
    },
    {
      name: "server-policy-not-routes",
      severity: "error",
      comment: "policy/ sits below routes/.",
      from: { path: `${SERVER}policy/` },
      to: { path: `${SERVER}routes/` },
    },
    // Web layers.
    {
      name: "web-features-not-app",
      severity: "error",
      comment: "features/ do not reach up into app/ (bootstrap, router, providers).",
      from: { path: `${WEB}features/` },
      to: { path: `${WEB}app/` },
    },
    {
      name: "web-services-not-features",
      severity: "error",
      comment: "services/ (API client, SSE, uploads) do not import features/.",
      from: { path: `${WEB}services/` },
      to: { path: `${WEB}features/` },
    },
    {
      name: "web-components-not-network",
      severity: "error",
      comment:
        "Components call feature actions; only features reach services/api (and runs-api) and IndexedDB (persistence's local-db and document-io).",
      from: { path: `${WEB}.*\\.tsx$` },
      to: {
        path: [
          `${WEB}services/(api|runs-api)\\.ts$`,
          `${WEB}features/persistence/(local-db|document-io)\\.ts$`,
        ],
      },
    },
    {
      name: "web-ui-not-features",
      severity: "error",
      comment: "ui/ holds generic components: it does not import features/.",
      from: { path: `${WEB}ui/` },
      to: { path: `${WEB}features/` },
    },
  ],
  options: {
    parser: "swc",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    doNotFollow: { path: "(^|/)node_modules/" },
    exclude: { path: ["(^|/)dist/", "^bench/\\.build/", "^bench/results/"] },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
