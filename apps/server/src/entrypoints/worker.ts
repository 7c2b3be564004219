import { startWorker } from "./processes.ts";
import { exitOnConfigError } from "./startup.ts";

// The worker process of the scale-out shape: generation jobs and server-side runs from the
// shared queue, any number of them (startWorker).
startWorker().catch(exitOnConfigError);
