import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { SavedWorkflow } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENCODED_ANSWER_MIN_BYTES, EncodedAnswers } from "../src/http/encoded-answers.ts";
import { TestClient } from "./helpers/client.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET as sent on the wire: the body's bytes as they arrive, not decoded (fetch decodes). */
function rawGet(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers }, (response) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(parts),
        }),
      );
    });
    sent.on("error", reject);
    sent.end();
  });
}

const decode = (answer: Answer): Buffer =>
  answer.headers["content-encoding"] === "br"
    ? brotliDecompressSync(answer.body)
    : answer.headers["content-encoding"] === "gzip"
      ? gunzipSync(answer.body)
      : answer.body;

describe("compressed API answers", () => {
  let server: TestServer;
  let alice: TestClient;
  let workflowId: string;
  const data: SavedWorkflow = makeWorkflow("Large", 60, 10_000);

  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    await alice.signUp("alice-compress@example.com");
    const made = await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Large",
      data,
    });
    workflowId = made.body.workflow.id;
  });
  afterAll(() => server.close());

  const open = (encoding: string | null, extra: Record<string, string> = {}) =>
    rawGet(`${server.url}/api/workflows/${workflowId}`, {
      cookie: alice.cookieHeader(),
      ...(encoding ? { "accept-encoding": encoding } : {}),
      ...extra,
    });

  it("sends a large workflow as brotli or gzip by Accept-Encoding, decoding to the same bytes", async () => {
    const plain = await open(null);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(ENCODED_ANSWER_MIN_BYTES);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);

    const br = await open("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 5);
    expect(decode(br).equals(plain.body)).toBe(true);

    const gzip = await open("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(decode(gzip).equals(plain.body)).toBe(true);

    // Nothing acceptable (or brotli refused): the plain bytes.
    const identity = await open("identity, br;q=0");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body.equals(plain.body)).toBe(true);
  });

  it("compresses each version once: the same bytes again, new bytes after a save", async () => {
    const first = await open("br");
    const again = await open("br");
    // The first answer may be the quick compression, the next its better replacement.
    expect(decode(again).equals(decode(first))).toBe(true);
    expect(again.body.length).toBeLessThanOrEqual(first.body.length);

    const renamed = { ...data, metadata: { ...data.metadata, name: "Large, renamed" } };
    const before = JSON.parse(decode(first).toString("utf8")).workflow;
    const saved = await alice.json("PUT", `/api/workflows/${workflowId}`, {
      name: "Large, renamed",
      data: renamed,
      basedOn: before.updated_at,
    });
    expect(saved.status).toBe(200);
    const after = await open("br");
    const reopened = JSON.parse(decode(after).toString("utf8")).workflow;
    expect(reopened.data.metadata.name).toBe("Large, renamed");
    expect(reopened.updated_at).not.toBe(before.updated_at);
  });

  it("gives each viewer their own answer (a share link's holder sees no folder)", async () => {
    const folder = (
      await alice.json<{ folder: { id: string } }>("POST", "/api/folders", { name: "Mine" })
    ).body.folder;
    const filed = await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Filed",
      data,
      folderId: folder.id,
    });
    const path = `${server.url}/api/workflows/${filed.body.workflow.id}`;
    const link = await alice.json<{ share: { token: string } }>(
      "POST",
      `/api/workflows/${filed.body.workflow.id}/shares`,
      { role: "view" },
    );
    const owner = await rawGet(path, { cookie: alice.cookieHeader(), "accept-encoding": "br" });
    const holder = await rawGet(path, {
      "accept-encoding": "br",
      "x-share-token": link.body.share.token,
    });
    expect(holder.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(decode(owner).toString("utf8")).workflow.folder_id).toBe(folder.id);
    expect(JSON.parse(decode(holder).toString("utf8")).workflow.folder_id).toBeNull();
  });

  it("compresses other JSON answers per request, small ones and event streams not at all", async () => {
    for (let index = 0; index < 12; index++)
      await alice.json("POST", "/api/workflows", { name: `Listed ${index}`, data: makeWorkflow() });
    const list = await rawGet(`${server.url}/api/workflows`, {
      cookie: alice.cookieHeader(),
      "accept-encoding": "br, gzip",
    });
    expect(list.headers["content-encoding"]).toBe("br");
    const listed = JSON.parse(decode(list).toString("utf8"));
    expect(listed.workflows.length).toBeGreaterThanOrEqual(13);

    const health = await rawGet(`${server.url}/api/health`, { "accept-encoding": "br, gzip" });
    expect(health.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(health.body.toString("utf8")).ok).toBe(true);

    const events = await fetch(`${server.url}/api/workflows/${workflowId}/events`, {
      headers: { cookie: alice.cookieHeader(), "accept-encoding": "br, gzip" },
    });
    expect(events.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(events.headers.get("content-encoding")).toBeNull();
    await events.body?.cancel();
  });

  it("never inflates a compressed request body", async () => {
    const response = await alice.raw("POST", "/api/workflows", {
      body: Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3]),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe("EncodedAnswers", () => {
  const body = (seed: number) => Buffer.from(JSON.stringify({ seed, text: "x".repeat(300_000) }));
  /** Structured JSON, as workflows are: the better level makes it smaller. */
  const workflowBody = (seed = 1) =>
    Buffer.from(JSON.stringify(makeWorkflow(`W${seed}`, 60, 10_000)));

  it("compresses an answer once for concurrent requests, quickly, then better, and keeps it", async () => {
    const answers = new EncodedAnswers();
    let made = 0;
    const make = () => {
      made++;
      return workflowBody();
    };
    const [a, b] = await Promise.all([
      answers.encoded("k", "br", make),
      answers.encoded("k", "br", make),
    ]);
    expect(a).toBe(b);
    expect(brotliDecompressSync(a).equals(workflowBody())).toBe(true);
    await answers.upgraded();
    const better = await answers.encoded("k", "br", make);
    expect(better.length).toBeLessThan(a.length);
    expect(brotliDecompressSync(better).equals(workflowBody())).toBe(true);
    expect(await answers.encoded("k", "br", make)).toBe(better);
    expect(made).toBe(1);
    expect(answers.bytes).toBe(better.length);
  });

  it("lets the least recently used answers go past its budget", async () => {
    const sizing = new EncodedAnswers();
    const quick = await sizing.encoded("one", "gzip", () => body(1));
    await sizing.upgraded();
    const one = await sizing.encoded("one", "gzip", () => body(1));
    // Room for two answers, the newest still in its quick (larger) form.
    const budget = one.length + quick.length + 10;
    const answers = new EncodedAnswers(budget);
    for (const [key, seed] of [
      ["one", 1],
      ["two", 2],
      ["one", 1],
      ["three", 3],
    ] as const) {
      await answers.encoded(key, "gzip", () => body(seed));
      await answers.upgraded();
    }
    expect(answers.bytes).toBeLessThanOrEqual(budget);
    // "two" was the least recently used when "three" came: it went, "one" stayed.
    const remade: string[] = [];
    await answers.encoded("one", "gzip", () => {
      remade.push("one");
      return body(1);
    });
    await answers.encoded("two", "gzip", () => {
      remade.push("two");
      return body(2);
    });
    expect(remade).toEqual(["two"]);
  });

  it("drops the better form of an answer that went meanwhile, and counts what it holds", async () => {
    const first = await new EncodedAnswers().encoded("a", "gzip", () => workflowBody());
    // Room for one quick answer: the second pushes the first out before its upgrade lands.
    const answers = new EncodedAnswers(first.length + 10);
    await answers.encoded("a", "gzip", () => workflowBody());
    await answers.encoded("b", "gzip", () => workflowBody(2));
    await answers.upgraded();
    const held = await answers.encoded("b", "gzip", () => workflowBody(2));
    expect(answers.bytes).toBe(held.length);
    let remade = false;
    await answers.encoded("a", "gzip", () => {
      remade = true;
      return workflowBody();
    });
    expect(remade).toBe(true);
  });
});
