import { expect, type Locator, type Page } from "@playwright/test";

/** The canvas as a user sees it: palette, nodes, handles, toolbar, toasts. */
export class CanvasPage {
  constructor(readonly page: Page) {}

  async open(query = ""): Promise<void> {
    await this.page.goto(`/${query}`);
    await expect(this.page.locator(".react-flow")).toBeVisible({ timeout: 30_000 });
  }

  palette(): Locator {
    return this.page.getByRole("navigation", { name: "Nodes" });
  }

  nodes(): Locator {
    return this.page.locator(".react-flow__node");
  }

  node(id: string): Locator {
    return this.page.locator(`.react-flow__node[data-id="${id}"]`);
  }

  async nodeIds(): Promise<string[]> {
    return this.nodes().evaluateAll((elements) =>
      elements.map((element) => element.getAttribute("data-id") ?? ""),
    );
  }

  /** Clicks a palette entry and returns the new node's id. */
  async add(displayName: string): Promise<string> {
    const before = new Set(await this.nodeIds());
    await this.palette().getByRole("button", { name: displayName, exact: true }).click();
    await expect.poll(async () => (await this.nodeIds()).length).toBe(before.size + 1);
    const added = (await this.nodeIds()).find((id) => !before.has(id));
    if (!added) throw new Error(`no node appeared for ${displayName}`);
    return added;
  }

  handle(nodeId: string, handleId: string, kind: "source" | "target"): Locator {
    return this.page.locator(
      `.react-flow__handle.${kind}[data-nodeid="${nodeId}"][data-handleid="${handleId}"]`,
    );
  }

  /** Drags a wire from an output handle to an input handle. */
  async connect(
    source: string,
    sourceHandle: string,
    target: string,
    targetHandle: string,
  ): Promise<void> {
    const from = await this.handle(source, sourceHandle, "source").boundingBox();
    const to = await this.handle(target, targetHandle, "target").boundingBox();
    if (!from || !to) throw new Error("handle not visible");
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await this.page.mouse.up();
  }

  /** Drags a node by its header to a new screen offset. */
  async drag(nodeId: string, dx: number, dy: number): Promise<void> {
    const header = this.node(nodeId).locator(".node-header, .group-title").first();
    const box = await header.boundingBox();
    if (!box) throw new Error("node not visible");
    await this.page.mouse.move(box.x + 20, box.y + box.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + 20 + dx, box.y + box.height / 2 + dy, { steps: 10 });
    await this.page.mouse.up();
  }

  /**
   * Drags a node by its header so that its top-left lands at a screen point. A header under
   * the selection toolbar is freed first (by clearing the selection).
   */
  async dragTo(nodeId: string, to: { x: number; y: number }): Promise<void> {
    const header = this.node(nodeId).locator(".node-header, .group-title").first();
    const covered = await header.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + 20, box.y + box.height / 2);
      return !hit || !element.contains(hit);
    });
    if (covered) await this.page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
    const at = await this.position(nodeId);
    await this.drag(nodeId, to.x - at.x, to.y - at.y);
  }

  /**
   * Adds from the palette, then drags the node to where a palette click used to put it (the
   * view's centre less 160 × 120, 40 further for each node already there, mod 8; at zoom
   * 0.8) moved by (dx, dy): new nodes now go to free spots, and the specs' layouts were
   * drawn from those points. Returns the node's id.
   */
  async addAndMove(displayName: string, dx: number, dy: number): Promise<string> {
    const step = ((await this.nodeIds()).length % 8) * 32;
    const id = await this.add(displayName);
    const origin = await this.page.evaluate(() => ({
      x: Math.round(window.innerWidth / 2 - 128),
      y: Math.round(window.innerHeight / 2 - 96),
    }));
    await this.dragTo(id, { x: origin.x + step + dx, y: origin.y + step + dy });
    return id;
  }

  async select(ids: string[]): Promise<void> {
    for (const [index, id] of ids.entries()) {
      const header = this.node(id).locator(".node-header, .group-title").first();
      await header.click({ modifiers: index === 0 ? [] : ["Shift"] });
    }
  }

  async position(nodeId: string): Promise<{ x: number; y: number }> {
    const box = await this.node(nodeId).boundingBox();
    if (!box) throw new Error("node not visible");
    return { x: Math.round(box.x), y: Math.round(box.y) };
  }

  edges(): Locator {
    return this.page.locator(".react-flow__edge");
  }

  toast(text: string): Locator {
    return this.page.locator("[data-sonner-toast]").filter({ hasText: text });
  }

  /** Creates an account through the sign-in dialog, waits until signed in; its email. */
  async signUp(prefix = "e2e"): Promise<string> {
    await this.page.getByRole("button", { name: "Sign in" }).click();
    await this.page
      .getByRole("dialog", { name: "Sign in" })
      .getByRole("button", { name: "Create an account" })
      .click();
    const form = this.page.getByRole("dialog", { name: "Create an account" });
    const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill("correct horse battery");
    await form.getByRole("button", { name: "Create account" }).click();
    await expect(this.page.getByRole("button", { name: /^Account: / })).toBeVisible();
    return email;
  }

  /** A screenshot kept with the test results, so a reviewer can see the product. */
  async shot(name: string): Promise<void> {
    await this.page.screenshot({ path: `test-results/screens/${name}.png` });
  }
}
