import type { SavedWorkflow, WorkflowRow, WorkflowSummary } from "@atelier/core";

/** An answer other than 2xx: the server's `{ error }` text, and for 409 the current version. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: "include",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!response.ok) {
    throw new ApiError(
      response.status,
      String(parsed.error ?? parsed.message ?? response.statusText),
      parsed,
    );
  }
  return parsed as T;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/** Typed calls to Atelier's server (DESIGN §5). Components reach these through actions. */
export const api = {
  async session(): Promise<SessionUser | null> {
    const answer = await call<{ user?: SessionUser } | null>("GET", "/api/auth/get-session").catch(
      () => null,
    );
    return answer?.user ?? null;
  },
  signUp: (email: string, password: string, name: string) =>
    call<{ user: SessionUser }>("POST", "/api/auth/sign-up/email", { email, password, name }),
  signIn: (email: string, password: string) =>
    call<{ user: SessionUser }>("POST", "/api/auth/sign-in/email", { email, password }),
  signOut: () => call("POST", "/api/auth/sign-out", {}),
  listWorkflows: () => call<{ workflows: WorkflowSummary[] }>("GET", "/api/workflows"),
  getWorkflow: (id: string) =>
    call<{ workflow: WorkflowRow }>("GET", `/api/workflows/${encodeURIComponent(id)}`),
  createWorkflow: (name: string, data: SavedWorkflow) =>
    call<{ workflow: WorkflowRow }>("POST", "/api/workflows", { name, data }),
  saveWorkflow: (id: string, name: string, data: SavedWorkflow, basedOn: string) =>
    call<{ workflow: WorkflowRow }>("PUT", `/api/workflows/${encodeURIComponent(id)}`, {
      name,
      data,
      basedOn,
    }),
  deleteWorkflow: (id: string) => call("DELETE", `/api/workflows/${encodeURIComponent(id)}`),
};
