import { once } from "node:events";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSafeFetcher,
  isPublicAddress,
  OutboundFetchError,
  type SafeFetcher,
} from "../src/providers/safe-fetch.ts";

const servers: Server[] = [];

async function listen(handler: RequestListener): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

let mainPort: number;
let otherPort: number;
let secretPort: number;
let secretHits = 0;
let fetcher: SafeFetcher;
const base = () => `http://127.0.0.1:${mainPort}`;

/** The allow-listed fake provider: one route per behaviour under test. */
const provider: RequestListener = (req, res) => {
  const path = req.url ?? "/";
  const hop = /^\/hop\/(\d+)$/.exec(path);
  if (path === "/image") {
    res.writeHead(200, { "content-type": "image/png" }).end(png);
  } else if (path === "/echo") {
    res.writeHead(200, { "content-type": "text/plain" }).end(req.headers.authorization ?? "none");
  } else if (hop) {
    const n = Number(hop[1]);
    if (n === 0) res.writeHead(200).end("done");
    else res.writeHead(302, { location: `/hop/${n - 1}` }).end();
  } else if (path === "/to-secret") {
    res.writeHead(302, { location: `http://127.0.0.1:${secretPort}/` }).end();
  } else if (path === "/to-localhost") {
    res.writeHead(307, { location: `http://localhost:${secretPort}/` }).end();
  } else if (path === "/to-other") {
    res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/echo` }).end();
  } else if (path === "/to-file") {
    res.writeHead(302, { location: "file:///etc/passwd" }).end();
  } else if (path === "/big-declared") {
    res.writeHead(200, { "content-length": "5000" }).end(Buffer.alloc(5000));
  } else if (path === "/big-chunked") {
    res.writeHead(200); // no content-length: Node sends it chunked
    for (let i = 0; i < 5; i++) res.write(Buffer.alloc(1000));
    res.end();
  } else if (path === "/hang") {
    // Never answers: only the fetcher's timeout ends this request.
  } else {
    res.writeHead(404).end("not found");
  }
};

beforeAll(async () => {
  mainPort = await listen(provider);
  otherPort = await listen(provider);
  secretPort = await listen((_req, res) => {
    secretHits++;
    res.end("secret");
  });
  fetcher = createSafeFetcher({
    allowHosts: [`127.0.0.1:${mainPort}`, ` 127.0.0.1:${otherPort} `],
    timeoutMs: 5_000,
  });
});

afterAll(async () => {
  await fetcher.close();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

describe("isPublicAddress", () => {
  it("accepts only global unicast", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"]) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
    const blocked = [
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "127.0.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "240.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "2002:a00:1::",
      "not-an-ip",
    ];
    for (const ip of blocked) expect(isPublicAddress(ip), ip).toBe(false);
  });
});

describe("createSafeFetcher", () => {
  it("fetches from an allow-listed host", async () => {
    const got = await fetcher.fetchBytes(`${base()}/image`);
    expect(Buffer.from(got.bytes).equals(png)).toBe(true);
    expect(got.contentType).toBe("image/png");
    expect(got.finalUrl).toBe(`${base()}/image`);
  });

  it("refuses loopback on a port that is not allow-listed", async () => {
    await expect(fetcher.fetchBytes(`http://127.0.0.1:${secretPort}/`)).rejects.toMatchObject({
      code: "blocked_address",
    });
    expect(secretHits).toBe(0);
  });

  it.each([
    "http://10.0.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://0.0.0.0/",
    "http://2130706433/", // 127.0.0.1 in decimal form
    "https://192.168.0.1/",
  ])("refuses %s before connecting", async (url) => {
    const err = await fetcher.fetchBytes(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundFetchError);
    expect(err).toMatchObject({ code: "blocked_address" });
    expect((err as Error).message).not.toContain(url);
  });

  it("refuses a host name that resolves to loopback", async () => {
    await expect(fetcher.fetchBytes(`http://localhost:${secretPort}/`)).rejects.toMatchObject({
      code: "blocked_address",
    });
    expect(secretHits).toBe(0);
  });

  it("re-checks every redirect hop", async () => {
    for (const path of ["/to-secret", "/to-localhost"]) {
      await expect(fetcher.fetchBytes(`${base()}${path}`)).rejects.toMatchObject({
        code: "blocked_address",
      });
    }
    await expect(fetcher.fetchBytes(`${base()}/to-file`)).rejects.toMatchObject({
      code: "bad_scheme",
    });
    expect(secretHits).toBe(0);
  });

  it("follows up to 5 redirects and refuses a sixth", async () => {
    const got = await fetcher.fetchBytes(`${base()}/hop/5`);
    expect(Buffer.from(got.bytes).toString()).toBe("done");
    expect(got.finalUrl).toBe(`${base()}/hop/0`);
    await expect(fetcher.fetchBytes(`${base()}/hop/6`)).rejects.toMatchObject({
      code: "too_many_redirects",
    });
  });

  it("drops caller headers when a redirect leaves the first origin", async () => {
    const headers = { authorization: "Key s3cret" };
    const same = await fetcher.fetchBytes(`${base()}/echo`, { headers });
    expect(Buffer.from(same.bytes).toString()).toBe("Key s3cret");
    const cross = await fetcher.fetchBytes(`${base()}/to-other`, { headers });
    expect(Buffer.from(cross.bytes).toString()).toBe("none");
  });

  it.each(["file:///etc/passwd", "ftp://example.com/a.png", "data:text/plain,hi", "nonsense"])(
    "refuses %s",
    async (url) => {
      await expect(fetcher.fetchBytes(url)).rejects.toMatchObject({ code: "bad_scheme" });
    },
  );

  it("enforces the size cap from content-length and while streaming", async () => {
    for (const path of ["/big-declared", "/big-chunked"]) {
      await expect(
        fetcher.fetchBytes(`${base()}${path}`, { maxBytes: 2500 }),
      ).rejects.toMatchObject({ code: "too_large" });
    }
    const ok = await fetcher.fetchBytes(`${base()}/big-chunked`, { maxBytes: 5000 });
    expect(ok.bytes.byteLength).toBe(5000);
  });

  it("uses the fetcher's default size cap", async () => {
    const small = createSafeFetcher({ allowHosts: [`127.0.0.1:${mainPort}`], maxBytes: 10 });
    try {
      await expect(small.fetchBytes(`${base()}/image`)).rejects.toMatchObject({
        code: "too_large",
      });
    } finally {
      await small.close();
    }
  });

  it("times out a server that never answers", async () => {
    const quick = createSafeFetcher({ allowHosts: [`127.0.0.1:${mainPort}`], timeoutMs: 300 });
    try {
      await expect(quick.fetchBytes(`${base()}/hang`)).rejects.toMatchObject({ code: "timeout" });
    } finally {
      await quick.close();
    }
  });

  it("reports HTTP errors with their status", async () => {
    await expect(fetcher.fetchBytes(`${base()}/missing`)).rejects.toMatchObject({
      code: "http_error",
      status: 404,
    });
  });

  it("reports a refused connection as a network error", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, "close");
    const f = createSafeFetcher({ allowHosts: [`127.0.0.1:${port}`] });
    try {
      await expect(f.fetchBytes(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({
        code: "network",
      });
    } finally {
      await f.close();
    }
  });
});
