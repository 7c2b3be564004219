import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * axe-core over the editor, the library and the dialogs: no serious or critical violation.
 * Each scan's counts are printed (the issue's note quotes them).
 */
export async function scan(page: Page, name: string, include?: string) {
  // Every rule axe has (WCAG 2.x A/AA and its best practices).
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const { violations, passes } = await builder.analyze();
  const severe = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const lines = violations.map(
    (v) =>
      `  ${v.impact} ${v.id} (${v.nodes.length}): ${v.help}\n${v.nodes
        .slice(0, 3)
        .map(
          (node) => `    ${node.target.join(" ")} — ${node.failureSummary?.split("\n")[1] ?? ""}`,
        )
        .join("\n")}`,
  );
  console.log(
    `axe ${name}: ${passes.length} rules passed, ${violations.length} violated (${severe.length} serious or critical)\n${lines.join("\n")}`,
  );
  expect(
    severe.map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}
