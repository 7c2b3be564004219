import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/** Ends the browser run with the plain line "N passed, N failed, N skipped" that CI reads. */
export default class ClosingLineReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  onTestEnd(_test: TestCase, result: TestResult): void {
    if (result.status === "passed") this.passed++;
    else if (result.status === "skipped") this.skipped++;
    else this.failed++;
  }

  onEnd(_result: FullResult): void {
    process.stdout.write(
      `\n${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped\n`,
    );
  }
}
