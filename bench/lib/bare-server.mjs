/**
 * Q1's baseline: a bare node:http JSON handler that reads the POST body, parses it and
 * answers a job status of the same shape and size as the real one. `node bare-server.mjs
 * <port> '<answer json>'`; prints "ready" once listening.
 */
import http from "node:http";

const port = Number(process.argv[2]);
const answer = process.argv[3] ?? "{}";

const server = http.createServer((request, response) => {
  const parts = [];
  request.on("data", (part) => parts.push(part));
  request.on("end", () => {
    const body = JSON.parse(Buffer.concat(parts).toString() || "{}");
    const text = answer.replace("__ID__", String(body.requestId ?? ""));
    response.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
    });
    response.end(text);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(port, "127.0.0.1", () => console.log("ready"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
