/** The user a request's session belongs to. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  /** A browser that runs generations before signing up: no cloud workflows or folders. */
  isAnonymous: boolean;
  /** Authenticated by a personal API token (`Authorization: Bearer`), not a session cookie. */
  viaToken?: true;
}
