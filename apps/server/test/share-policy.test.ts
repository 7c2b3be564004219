import { SHARE_TOKEN_HEADER } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRouteFixture } from "./helpers/route-fixture.ts";
import { type Fixture, INVENTORY, type Probe } from "./helpers/route-inventory.ts";
import { LINK_CALLERS } from "./helpers/route-inventory-base.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

/**
 * Share-link policy over the whole route inventory (issue 22): every route is tried by the
 * owner, a stranger through each of the owner's links (view, run, edit, revoked), the
 * stranger without one, and a signed-out visitor; each answer is the one listed. A link
 * reaches only what its role allows on its own workflow and app: elsewhere it is the
 * stranger's answer, and no answer through a link carries the owner's folder.
 */
describe("share links × every route", () => {
  let server: TestServer;
  let fixture: Fixture;
  let aliceCookie: string;
  let bobCookie: string;
  beforeAll(async () => {
    server = await startTestServer();
    const built = await buildRouteFixture(server);
    fixture = built.fixture;
    aliceCookie = built.alice.cookieHeader();
    bobCookie = built.bob.cookieHeader();
  });
  afterAll(() => server.close());

  // Cookies are fixed up front: a probe that signs in must not change who the callers are.
  async function call(cookie: string, method: string, probe: Probe, token?: string) {
    const headers: Record<string, string> = { origin: server.url };
    if (cookie) headers.cookie = cookie;
    if (token) headers[SHARE_TOKEN_HEADER] = token;
    let body: BodyInit | undefined;
    if (probe.form) body = await probe.form();
    else if (probe.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(probe.json);
    }
    const response = await fetch(new URL(probe.path, server.url), {
      method,
      headers,
      redirect: "manual",
      ...(body !== undefined ? { body } : {}),
    });
    // An event stream is judged by its status; it is not read to its end.
    if (probe.stream && response.status === 200) {
      await response.body?.cancel();
      return { status: response.status, text: "" };
    }
    const text = await response.text();
    return { status: response.status, text };
  }

  it("answers each caller as listed, and never shows the owner's folder through a link", async () => {
    const failures: string[] = [];
    for (const [key, entry] of Object.entries(INVENTORY)) {
      const [method] = key.split(" ") as [string];
      const expect_ = (who: string, status: number, want: number, text: string) => {
        if (status !== want)
          failures.push(`${key} as ${who}: ${status}, expected ${want} ${text.slice(0, 160)}`);
      };
      for (const role of LINK_CALLERS) {
        const answer = await call(
          bobCookie,
          method,
          await entry.probe(fixture),
          fixture.shares[role],
        );
        expect_(`${role} link`, answer.status, entry.links?.[role] ?? entry.other, answer.text);
        if (answer.text.includes("Hidden work"))
          failures.push(`${key} via ${role} link leaked the folder`);
      }
      const stranger = await call(bobCookie, method, await entry.probe(fixture));
      expect_("stranger", stranger.status, entry.other, stranger.text);
      const signedOut = await call("", method, await entry.probe(fixture));
      expect_("anonymous", signedOut.status, entry.anonymous, signedOut.text);
      const owner = await call(aliceCookie, method, await entry.probe(fixture));
      expect_("owner", owner.status, entry.owner, owner.text);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
