import { startWeb } from "./processes.ts";
import { exitOnConfigError } from "./startup.ts";

// The web process of the scale-out shape: HTTP API and the built web app, any number behind
// a load balancer (startWeb).
startWeb().catch(exitOnConfigError);
