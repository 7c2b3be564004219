import { RESET_PASSWORD_PATH } from "@atelier/core";
import { describe, expect, it } from "vitest";
import { AuthCallback } from "../src/app/AuthCallback.tsx";
import { matchRoute, NOT_FOUND, ROUTES, type Route } from "../src/app/routes.ts";
import { WORKFLOW_PATTERNS } from "../src/features/workspace/url-sync.ts";
import { matchPath, rememberReturn, takeReturn } from "../src/services/address-bar.ts";

const editor = matchRoute("/").route.page;

describe("the route table (app/routes.ts)", () => {
  it("sends the editor's addresses to one editor page, with their parameters", () => {
    expect(matchRoute("/")).toEqual({
      route: expect.objectContaining({ pattern: "/" }),
      params: {},
    });
    expect(matchRoute("/w/0b6f4c1e")).toMatchObject({
      route: { pattern: "/w/:id", page: editor },
      params: { id: "0b6f4c1e" },
    });
    expect(matchRoute("/local/5d1a")).toMatchObject({
      route: { pattern: "/local/:id", page: editor },
      params: { id: "5d1a" },
    });
    // One component for all three: moving between workflows keeps the editor mounted.
    for (const pattern of Object.values(WORKFLOW_PATTERNS))
      expect(
        ROUTES.find((route) => route.pattern === pattern && route.query === undefined)?.page,
      ).toBe(editor);
    expect(matchRoute("/").route.loading).toBe("Loading the canvas…");
  });

  it("sends a workflow's address with ?v= to the version page, with the version", () => {
    const version = matchRoute("/w/0b6f4c1e", ROUTES, "?v=3");
    expect(version.route.page).not.toBe(editor);
    expect(version.route.loading).toBe("Opening the version…");
    expect(version.params).toEqual({ id: "0b6f4c1e", v: "3" });
    // Other queries (and an empty v) leave the editor in charge.
    expect(matchRoute("/w/0b6f4c1e", ROUTES, "?debug=renders").route.page).toBe(editor);
    expect(matchRoute("/w/0b6f4c1e", ROUTES, "?v=").route.page).toBe(editor);
    // A device workflow's versions open on the same page, its id without the prefix.
    const onDevice = matchRoute("/local/5d1a", ROUTES, "?v=3");
    expect(onDevice.route.page).toBe(version.route.page);
    expect(onDevice.params).toEqual({ localId: "5d1a", v: "3" });
    expect(matchRoute("/local/5d1a", ROUTES, "?v=").route.page).toBe(editor);
  });

  it("opens password reset links (core's RESET_PASSWORD_PATH) on their page", () => {
    const reset = matchRoute(RESET_PASSWORD_PATH, ROUTES, "?token=abc");
    expect(reset.route.pattern).toBe(RESET_PASSWORD_PATH);
    expect(reset.route.page).not.toBe(editor);
  });

  it("sends the sign-in return to its page", () => {
    expect(matchRoute("/auth/callback").route.page).toBe(AuthCallback);
  });

  it("takes escaped ids, refuses empty, extra or malformed segments", () => {
    expect(matchRoute("/w/a%20b").params).toEqual({ id: "a b" });
    const others = ["/w", "/w/", "/w/a/b", "/w/abc/", "/local/", "/w/%E0%A4%A", "/nope", "/auth"];
    for (const path of others) {
      expect(matchRoute(path), path).toEqual({ route: NOT_FOUND, params: {} });
    }
  });

  it("adds a page with one entry, the first matching entry winning", () => {
    const page = () => null;
    const routes: Route[] = [...ROUTES, { pattern: "/x/:token", page }];
    expect(matchRoute("/x/t0k3n", routes)).toEqual({
      route: { pattern: "/x/:token", page },
      params: { token: "t0k3n" },
    });
    expect(matchRoute("/x/t0k3n").route).toBe(NOT_FOUND);
    // Share links and apps are pages of their own.
    expect(matchRoute("/s/t0k3n").params).toEqual({ token: "t0k3n" });
    expect(matchRoute("/a/my-app").params).toEqual({ slug: "my-app" });
  });

  it("matches patterns segment by segment", () => {
    expect(matchPath("/", "/")).toEqual({});
    expect(matchPath("/", "/w")).toBeNull();
    expect(matchPath("/a/:x/b/:y", "/a/1/b/2")).toEqual({ x: "1", y: "2" });
    expect(matchPath("/a/:x/b/:y", "/a/1/c/2")).toBeNull();
  });
});

describe("the way back from an identity provider", () => {
  it("returns to the address left from, once, and to the canvas otherwise", () => {
    window.history.replaceState(null, "", "/w/0b6f?x=1");
    rememberReturn();
    window.history.replaceState(null, "", "/auth/callback?code=abc");
    expect(takeReturn()).toBe("/w/0b6f?x=1");
    expect(takeReturn()).toBe("/");
  });

  it("goes nowhere but a path of this app", () => {
    for (const stored of ["https://evil.example/", "//evil.example/", "/auth/callback", "w/x"]) {
      sessionStorage.setItem("atelier.returnTo", stored);
      expect(takeReturn(), stored).toBe("/");
    }
  });
});
