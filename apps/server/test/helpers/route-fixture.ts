import { TestClient } from "./client.ts";
import { pngBytes, uploadForm } from "./files.ts";
import { type Fixture, unique } from "./route-inventory-base.ts";
import { startRun } from "./route-inventory-headless.ts";
import { FIXTURE_APP } from "./route-inventory-sharing.ts";
import type { TestServer } from "./server.ts";
import { makeWorkflow } from "./workflows.ts";

/**
 * Alice's resources every route of the inventory names (a folder "Hidden work", a workflow
 * "Secret" with media, jobs, a run, a token, share links and a link-only app), and the
 * cookies of Alice and of another user, Bob.
 */
export async function buildRouteFixture(server: TestServer) {
  const alice = new TestClient(server.url);
  const bob = new TestClient(server.url);
  await alice.signUp("alice@example.com");
  await bob.signUp("bob@example.com");
  const folder = async (name: string) =>
    (await alice.json<{ folder: { id: string } }>("POST", "/api/folders", { name })).body.folder.id;
  const workflow = async (name: string, folderId: string) =>
    (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name,
        data: makeWorkflow(name),
        folderId,
      })
    ).body.workflow.id;
  const media = async (workflowId: string) =>
    (await (
      await alice.raw("POST", "/api/media", {
        body: uploadForm(
          { name: "a.png", type: "image/png", bytes: await pngBytes() },
          { workflowId },
        ),
      })
    ).json()) as { id: string; path: string };
  const job = async (workflowId: string) =>
    (
      await alice.json<{ requestId: string }>("POST", "/api/generate/gemini-text", {
        nodeId: `n-${unique()}`,
        workflowId,
        inputs: { prompt: "Secret prompt" },
      })
    ).body.requestId;
  const share = async (workflowId: string, role: string) =>
    (
      await alice.json<{ share: { id: string; token: string } }>(
        "POST",
        `/api/workflows/${workflowId}/shares`,
        { role },
      )
    ).body.share;
  const home = await folder("Hidden work");
  const main = await workflow("Secret", home);
  const kept = await media(main);
  const revoked = await share(main, "edit");
  await alice.json("DELETE", `/api/workflows/${main}/shares/${revoked.id}`);
  const app = await alice.json<{ app: { slug: string } }>(
    "PUT",
    `/api/workflows/${main}/app`,
    FIXTURE_APP,
  );
  const slug = app.body.app.slug;
  const appRun = await alice.json<{ run: { id: string } }>("POST", `/api/apps/${slug}/runs`, {
    values: {},
  });
  const fixture: Fixture = {
    alice,
    folder: home,
    folderToDelete: await folder("Doomed"),
    workflow: main,
    workflowToDelete: await workflow("Doomed", home),
    workflowToCopy: await workflow("Copied", home),
    media: kept.id,
    mediaPath: kept.path,
    mediaToDelete: (await media(main)).id,
    job: await job(main),
    jobToCancel: await job(main),
    run: await startRun({ alice, workflow: main }),
    tokenToRevoke: (await alice.json<{ id: string }>("POST", "/api/tokens", { name: "To revoke" }))
      .body.id,
    shares: {
      view: (await share(main, "view")).token,
      run: (await share(main, "run")).token,
      edit: (await share(main, "edit")).token,
      revoked: revoked.token,
    },
    appSlug: slug,
    appRun: appRun.body.run.id,
  };
  return { fixture, alice, bob };
}
