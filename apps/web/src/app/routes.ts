import { type ComponentType, lazy } from "react";
import { matchPath } from "../services/address-bar.ts";
import { AuthCallback } from "./AuthCallback.tsx";

/*
 * The app's pages by address (SPEC §2). Adding a page is one entry: its pattern ("/s/:token"),
 * its component (lazy unless tiny: the first load is budgeted) and what shows while it loads.
 * The server answers every such path with the app shell (apps/server/src/app.ts).
 */

export type Params = Readonly<Record<string, string>>;

export interface PageProps {
  /** The pattern's parameters: `{ id }` for "/w/:id". */
  params: Params;
}

export interface Route {
  pattern: string;
  /** A query parameter the address must have too (`v` of "/w/:id?v=3"); it joins `params`. */
  query?: string;
  page: ComponentType<PageProps>;
  /** Shown while a lazy page loads. */
  loading?: string;
}

const Editor = lazy(() =>
  import("../features/editor/Editor.tsx").then((module) => ({ default: module.Editor })),
);
const canvas = { page: Editor, loading: "Loading the canvas…" };
const SharedLinkPage = lazy(() =>
  import("../features/sharing/SharedLinkPage.tsx").then((module) => ({
    default: module.SharedLinkPage,
  })),
);
const AppPage = lazy(() =>
  import("../features/apps/AppRoute.tsx").then((module) => ({ default: module.AppRoute })),
);
const VersionPage = lazy(() =>
  import("../features/history/VersionPage.tsx").then((module) => ({
    default: module.VersionPage,
  })),
);
const ResetPasswordPage = lazy(() =>
  import("../features/account/ResetPasswordPage.tsx").then((module) => ({
    default: module.ResetPasswordPage,
  })),
);
const AdminPage = lazy(() =>
  import("../features/admin/AdminPage.tsx").then((module) => ({ default: module.AdminPage })),
);
const InvitePage = lazy(() =>
  import("../features/account/InvitePage.tsx").then((module) => ({ default: module.InvitePage })),
);
const PageNotFound = lazy(() =>
  import("./PageNotFound.tsx").then((module) => ({ default: module.PageNotFound })),
);

/** The first entry that matches wins. */
export const ROUTES: readonly Route[] = [
  // The editor: a new workflow, a cloud workflow, one kept on this device (url-sync.ts).
  { pattern: "/", ...canvas },
  // A saved version of a cloud workflow, read-only.
  { pattern: "/w/:id", query: "v", page: VersionPage, loading: "Opening the version…" },
  { pattern: "/w/:id", ...canvas },
  // A version of a workflow kept on this device, read-only.
  { pattern: "/local/:localId", query: "v", page: VersionPage, loading: "Opening the version…" },
  { pattern: "/local/:id", ...canvas },
  // A share link: the canvas (view, edit) or the workflow's app (run).
  { pattern: "/s/:token", page: SharedLinkPage, loading: "Opening the shared link…" },
  // A published app's page.
  { pattern: "/a/:slug", page: AppPage, loading: "Loading the app…" },
  // A password reset link (mailed, or issued by an admin): core's RESET_PASSWORD_PATH, written
  // out so that the first load does not carry core's constants module (routes.test.ts).
  { pattern: "/reset-password", page: ResetPasswordPage, loading: "Loading…" },
  // An admin's invitation to sign up.
  { pattern: "/invite/:token", page: InvitePage, loading: "Loading…" },
  // Running the instance (admins; the server refuses anyone else).
  { pattern: "/admin", page: AdminPage, loading: "Loading…" },
  // Back from the identity provider.
  { pattern: "/auth/callback", page: AuthCallback },
];

/** Any other address. */
export const NOT_FOUND: Route = { pattern: "*", page: PageNotFound };

/** The page for `path` (with its `search`) and its parameters. */
export function matchRoute(
  path: string,
  routes: readonly Route[] = ROUTES,
  search = "",
): { route: Route; params: Params } {
  const query = new URLSearchParams(search);
  for (const route of routes) {
    const params = matchPath(route.pattern, path);
    if (!params) continue;
    if (route.query === undefined) return { route, params };
    const value = query.get(route.query);
    if (value) return { route, params: { ...params, [route.query]: value } };
  }
  return { route: NOT_FOUND, params: {} };
}
