import { expect } from "vitest";
import { TestClient } from "./client.ts";

export type Answer = { status: number; body: unknown; headers: Headers };

/** A 429 with `{ error: "<limit>. Try again in <wait>." }` and a Retry-After within range. */
export function expectTooMany(answer: Answer, limit: string, retryAfter: [number, number]) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  const seconds = Number(answer.headers.get("retry-after"));
  expect(seconds).toBeGreaterThanOrEqual(retryAfter[0]);
  expect(seconds).toBeLessThanOrEqual(retryAfter[1]);
  const wait =
    seconds < 120
      ? `${seconds} s`
      : seconds < 7200
        ? `${Math.ceil(seconds / 60)} min`
        : `${Math.ceil(seconds / 3600)} h`;
  expect(answer.body).toEqual({ error: `${limit}. Try again in ${wait}.` });
}

/** A browser's anonymous session (what the web app makes before any generation). */
export async function anonymousClient(url: string) {
  const client = new TestClient(url);
  expect((await client.json("POST", "/api/auth/sign-in/anonymous", {})).status).toBe(200);
  return client;
}
