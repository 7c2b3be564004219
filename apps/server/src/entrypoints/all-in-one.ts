import { exitOnConfigError, startWeb } from "./web.ts";

// The embedded default: one process serves the API and the web app (and, once the job
// engine lands, runs the worker too). PGlite and files under DATA_DIR unless configured.
startWeb().catch(exitOnConfigError);
