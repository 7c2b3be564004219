/*
 * The e2e suite's priced server: a second Atelier whose signed-in runs go to a fake fal on
 * loopback (apps/server/test/fakes/fal-process.ts), with a daily budget, for the costs spec.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
export const PRICED_PORT = port + 22;
export const FAKE_FAL_PORT = port + 23;
export const PRICED_URL = `http://127.0.0.1:${PRICED_PORT}`;
/** Each account's daily budget there, in US dollars. */
export const PRICED_DAILY_BUDGET = 2;
