import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with the plain line "N passed, N failed, N skipped", which CI reads to know
 * how many tests ran (Vitest's own summary is in colour and in another shape).
 */
export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      if (testModule.state() === "failed" && [...testModule.children.allTests()].length === 0)
        failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
