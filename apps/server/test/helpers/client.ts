/** A user agent for tests: keeps its cookies like a browser does, speaks JSON. */
export class TestClient {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair?.indexOf("=") ?? -1;
      if (!pair || index < 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async raw(
    method: string,
    path: string,
    init: { body?: BodyInit; headers?: Record<string, string> } = {},
  ) {
    // Like a browser on the app's own page: a state change names its origin (the server
    // refuses cookie-carrying changes without one, docs/security.md).
    const origin: Record<string, string> =
      method === "GET" || method === "HEAD" ? {} : { origin: this.baseUrl };
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      redirect: "manual",
      headers: {
        ...origin,
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...init.headers,
      },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    this.remember(response);
    return response;
  }

  async json<T = Record<string, unknown>>(method: string, path: string, body?: unknown) {
    const response = await this.raw(method, path, {
      ...(body !== undefined
        ? {
            body: JSON.stringify(body),
            headers: { "content-type": "application/json", origin: this.baseUrl },
          }
        : { headers: { origin: this.baseUrl } }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : null) as T,
      headers: response.headers,
    };
  }

  /**
   * Signs up with email and password, then signs in like the web app (sign-up itself opens
   * no session, so it cannot tell who has an account); the session cookie is kept.
   */
  async signUp(
    email: string,
    password = "correct horse battery",
    name = email.split("@")[0] ?? "user",
  ) {
    const result = await this.json("POST", "/api/auth/sign-up/email", { email, password, name });
    if (result.status !== 200)
      throw new Error(`sign-up failed: ${result.status} ${JSON.stringify(result.body)}`);
    const signedIn = await this.signIn(email, password);
    if (signedIn.status !== 200)
      throw new Error(`sign-in failed: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
    return signedIn.body as { user: { id: string; email: string } };
  }

  async signIn(email: string, password = "correct horse battery") {
    return this.json("POST", "/api/auth/sign-in/email", { email, password });
  }
}
