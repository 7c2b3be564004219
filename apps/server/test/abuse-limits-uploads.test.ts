import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { uploadForm, wavBytes } from "./helpers/files.ts";
import { anonymousClient, expectTooMany } from "./helpers/limits.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/** A WAV file of about `kb` kilobytes (real audio, so the upload checks pass). */
const wavOf = (kb: number) => wavBytes(kb * 512);

async function upload(client: TestClient, kb = 1) {
  const response = await client.raw("POST", "/api/media", {
    body: uploadForm(
      { name: "clip.wav", type: "audio/wav", bytes: wavOf(kb) },
      { workflowId: "temporary" },
    ),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

describe("abuse limits: uploads a minute", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      RATE_LIMIT_UPLOADS_PER_MINUTE: "5",
      RATE_LIMIT_UPLOADS_PER_SESSION_PER_MINUTE: "3",
    });
  });
  afterAll(() => server.close());

  it("allows 3 per session and 5 per address", async () => {
    const first = await anonymousClient(server.url);
    for (let index = 0; index < 3; index++) expect((await upload(first)).status).toBe(201);
    expectTooMany(await upload(first), "Too many uploads: at most 3 a minute", [55, 60]);
    // Five requests from this address so far: one more, then the address is over.
    const second = await anonymousClient(server.url);
    expect((await upload(second)).status).toBe(201);
    expectTooMany(
      await upload(second),
      "Too many uploads from this address: at most 5 a minute",
      [55, 60],
    );
    expect((await server.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });
});

describe("abuse limits: upload bytes", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      UPLOAD_MB_PER_MINUTE: "1",
      UPLOAD_MB_PER_MINUTE_PER_ADDRESS: "2",
    });
  });
  afterAll(() => server.close());

  it("allows 1 MB a minute per session and 2 MB per address", async () => {
    const first = new TestClient(server.url);
    await first.signUp("bytes-1@example.com");
    expect((await upload(first, 600)).status).toBe(201);
    expectTooMany(
      await upload(first, 600),
      "Upload limit reached: at most 1 MB a minute",
      [55, 60],
    );
    // Small files still fit the rest of the session's minute.
    expect((await upload(first, 100)).status).toBe(201);
    for (const name of ["bytes-2", "bytes-3"]) {
      const other = new TestClient(server.url);
      await other.signUp(`${name}@example.com`);
      expect((await upload(other, 600)).status).toBe(201);
    }
    const fourth = new TestClient(server.url);
    await fourth.signUp("bytes-4@example.com");
    expectTooMany(
      await upload(fourth, 600),
      "Upload limit reached for this address: at most 2 MB a minute",
      [55, 60],
    );
  });
});

describe("abuse limits: disk budget of anonymous uploads", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_UPLOAD_MB_PER_DAY: "1",
      ANONYMOUS_UPLOAD_MB_PER_DAY_PER_ADDRESS: "2",
    });
  });
  afterAll(() => server.close());

  it("stores 1 MB a day per anonymous session and 2 MB per address; accounts are not held", async () => {
    const first = await anonymousClient(server.url);
    expect((await upload(first, 600)).status).toBe(201);
    const day = "Storage limit for anonymous uploads reached: at most 1 MB a day";
    expectTooMany(await upload(first, 600), `${day} (sign in to upload more)`, [86_000, 86_400]);
    for (let index = 0; index < 2; index++) {
      const other = await anonymousClient(server.url);
      expect((await upload(other, 600)).status).toBe(201);
    }
    const fourth = await anonymousClient(server.url);
    expectTooMany(
      await upload(fourth, 600),
      "Storage limit for anonymous uploads from this address reached: at most 2 MB a day (sign in to upload more)",
      [86_000, 86_400],
    );
    const member = new TestClient(server.url);
    await member.signUp("member-uploads@example.com");
    for (let index = 0; index < 3; index++) expect((await upload(member, 600)).status).toBe(201);
  });
});

describe("abuse limits: media sent inline with a generation", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_UPLOAD_MB_PER_DAY: "1",
      ANONYMOUS_UPLOAD_MB_PER_DAY_PER_ADDRESS: "10",
    });
  });
  afterAll(() => server.close());

  it("counts media sent inline with a generation against the same daily budget", async () => {
    const client = await anonymousClient(server.url);
    expect((await upload(client, 600)).status).toBe(201);
    // Noise does not compress: a PNG of about 480 KB, past the session's 1 MB with the upload.
    const noisy = await sharp({
      create: {
        width: 400,
        height: 400,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(450 * 1024);
    const answer = await client.json<{ error: string }>("POST", "/api/generate/resize", {
      nodeId: "inline",
      inputs: { image: `data:image/png;base64,${noisy.toString("base64")}` },
      params: { width: 20, height: 10 },
    });
    expect(answer.status).toBe(429);
    expect(answer.body.error).toMatch(
      /^Storage limit for anonymous uploads reached: at most 1 MB a day/,
    );
  });
});
