import { AppPage } from "./AppPage.tsx";

/** `/a/{slug}`: a published app's page. */
export function AppRoute({ params }: { params: Readonly<Record<string, string>> }) {
  return <AppPage slug={params.slug ?? ""} />;
}
