import { fileURLToPath } from "node:url";
import { buildApp } from "../app.ts";

const port = Number.parseInt(process.env.PORT ?? "3000", 10);
const webRoot = fileURLToPath(new URL("../../../web/dist", import.meta.url));

const app = await buildApp({ webRoot, logger: true });
await app.listen({ port, host: process.env.HOST ?? "0.0.0.0" });
