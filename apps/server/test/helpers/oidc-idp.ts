import { createServer, type Server } from "node:http";
import Provider from "oidc-provider";
import { freePort } from "./server.ts";

export interface LocalIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on loopback, with one confidential client and
 * accounts whose id is their email. Its development login and consent pages stand in for
 * a user at the provider.
 */
export async function startLocalIdp(redirectUri: string): Promise<LocalIdp> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "atelier-test";
  const clientSecret = "atelier-test-secret-atelier-test-secret";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: false,
    cookies: { keys: ["local-idp-cookie-key"] },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: id.split("@")[0] }),
    }),
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Plays the user at the provider: follows redirects with the provider's cookies, signs in
 * as `email`, grants consent, and returns the URL the provider sends the browser back to.
 */
export async function signInAtIdp(
  authorizationUrl: string,
  email: string,
  returnPrefix: string,
): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair?.indexOf("=") ?? -1;
      if (pair && index > 0) jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
  };
  let url = authorizationUrl;
  let init: RequestInit = { method: "GET" };
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(returnPrefix)) return url;
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as object), cookie: cookieHeader() },
    });
    remember(response);
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url).toString();
      init = { method: "GET" };
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt)
      throw new Error(
        `unexpected page at the provider (${response.status}): ${page.slice(0, 300)}`,
      );
    const form = new URLSearchParams({
      prompt,
      ...(prompt === "login" ? { login: email, password: "any" } : {}),
    });
    url = new URL(action, url).toString();
    init = {
      method: "POST",
      body: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    };
  }
  throw new Error("too many steps at the provider");
}
