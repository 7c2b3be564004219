import { startWeb } from "./processes.ts";
import { exitOnConfigError } from "./startup.ts";

// The embedded default: one process serves the API and the web app and runs the generation
// worker. PGlite and files under DATA_DIR unless configured.
startWeb({ withWorker: true }).catch(exitOnConfigError);
