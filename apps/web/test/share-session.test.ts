import { SHARE_TOKEN_HEADER } from "@atelier/core";
import { afterEach, expect, it } from "vitest";
import { SHARE_HEADER, setShareToken, shareHeaders } from "../src/services/share-session.ts";

afterEach(() => setShareToken(null));

it("names the link's token in core's header (written out to keep zod off the first load)", () => {
  expect(SHARE_HEADER).toBe(SHARE_TOKEN_HEADER);
  expect(shareHeaders()).toEqual({});
  setShareToken("t".repeat(32));
  expect(shareHeaders()).toEqual({ [SHARE_TOKEN_HEADER]: "t".repeat(32) });
});
