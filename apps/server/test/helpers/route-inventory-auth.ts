import { type Entry, unique } from "./route-inventory-base.ts";

/** The instance's own routes (health, readiness, metrics) in the route inventory. */
export const INSTANCE_ROUTES: Record<string, Entry> = {
  "GET /api/health": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/health" }),
  },
  "GET /api/ready": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/ready" }),
  },
  // Off on the test server (HOST 0.0.0.0, no METRICS_TOKEN): metrics.test.ts covers it on.
  "GET /metrics": {
    writes: false,
    owner: 404,
    other: 404,
    anonymous: 404,
    probe: () => ({ path: "/metrics" }),
  },
};

/** Accounts and sign-in (Better Auth's endpoints and ours beside them) in the route inventory. */
export const AUTH_ROUTES: Record<string, Entry> = {
  "GET /api/auth/admin-status": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/auth/admin-status" }),
  },
  "GET /api/auth/providers": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/auth/providers" }),
  },
  // Signing in from a foreign page would sign the victim into the attacker's account.
  "POST /api/auth/sign-in/*": {
    writes: true,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({
      path: "/api/auth/sign-in/email",
      json: { email: "alice@example.com", password: "correct horse battery" },
    }),
  },
  "POST /api/auth/sign-up/*": {
    writes: true,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({
      path: "/api/auth/sign-up/email",
      json: { email: `new-${unique()}@example.com`, password: "correct horse battery", name: "N" },
    }),
  },
  // The mailing endpoints: this server has no SMTP_URL, so they say so (mail.test.ts sends).
  "POST /api/auth/request-password-reset": {
    writes: true,
    owner: 400,
    other: 400,
    anonymous: 400,
    probe: () => ({
      path: "/api/auth/request-password-reset",
      json: { email: "alice@example.com" },
    }),
  },
  "POST /api/auth/send-verification-email": {
    writes: true,
    owner: 400,
    other: 400,
    anonymous: 400,
    probe: () => ({
      path: "/api/auth/send-verification-email",
      json: { email: "alice@example.com" },
    }),
  },
  "POST /api/auth/reset-password": {
    writes: true,
    owner: 400,
    other: 400,
    anonymous: 400,
    probe: () => ({
      path: "/api/auth/reset-password",
      json: { token: "not-a-token", newPassword: "another horse battery" },
    }),
  },
  // Better Auth's own GET endpoints (session, OAuth callbacks): reads or top-level navigations.
  "GET /api/auth/*": {
    writes: false,
    owner: 200,
    other: 200,
    anonymous: 200,
    probe: () => ({ path: "/api/auth/get-session" }),
  },
  // Better Auth's other POST endpoints (sign-out, update-user, change-password…).
  "POST /api/auth/*": {
    writes: true,
    owner: 200,
    other: 200,
    anonymous: 401,
    probe: () => ({ path: "/api/auth/update-user", json: { name: "Renamed" } }),
  },
};
