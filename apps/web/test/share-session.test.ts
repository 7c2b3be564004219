import { SHARE_TOKEN_HEADER } from "@atelier/core";
import { afterEach, expect, it } from "vitest";
import {
  SHARE_HEADER,
  setShareToken,
  shareHeaders,
  withShareQuery,
} from "../src/services/share-session.ts";

afterEach(() => setShareToken(null));

it("sends the tab's link token in core's header, and as ?share= where no header can go", () => {
  expect(SHARE_HEADER).toBe(SHARE_TOKEN_HEADER);
  expect(shareHeaders()).toEqual({});
  expect(withShareQuery("/api/x")).toBe("/api/x");
  setShareToken("t".repeat(32));
  expect(shareHeaders()).toEqual({ [SHARE_TOKEN_HEADER]: "t".repeat(32) });
  expect(withShareQuery("/api/x?a=1")).toBe(`/api/x?a=1&share=${"t".repeat(32)}`);
});
