import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Prints why each skipped test was skipped (the list reporter only marks it "-") and what each
 * failed test failed with, then ends the
 * run's output with one plain line, "playwright: N passed, N failed, N skipped", so
 * that a run that executed nothing (0 passed) is visible at a glance and to CI. A test counts
 * once, by its final outcome; a run that could not start (global setup failed, no tests found)
 * still prints the line, with one failure for the run itself.
 */
export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<string, 'passed' | 'failed' | 'skipped'>();
  /** Why each skipped test was skipped (its skip annotation), printed before the summary. */
  private readonly skipReasons = new Map<string, string>();
  /** What each failed test failed with (the first line of its first error). */
  private readonly failReasons = new Map<string, string>();
  private errors = 0;

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const outcome = test.outcome();
    if (result.status === 'skipped' || outcome === 'skipped') {
      this.outcomes.set(test.id, 'skipped');
      const reason = test.annotations.find((a) => a.type === 'skip')?.description;
      this.skipReasons.set(
        test.id,
        `${test.titlePath().filter(Boolean).join(' › ')}: ${reason ?? 'no reason given'}`,
      );
    } else if (outcome === 'expected' || outcome === 'flaky') this.outcomes.set(test.id, 'passed');
    else {
      this.outcomes.set(test.id, 'failed');
      const message = result.errors[0]?.message?.split('\n', 1)[0] ?? `status ${result.status}`;
      this.failReasons.set(test.id, `${test.titlePath().filter(Boolean).join(' › ')}: ${message}`);
    }
  }

  onError(): void {
    this.errors++;
  }

  async onEnd(result: FullResult): Promise<void> {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const outcome of this.outcomes.values()) {
      if (outcome === 'passed') passed++;
      else if (outcome === 'failed') failed++;
      else skipped++;
    }
    failed += this.errors;
    if (failed === 0 && result.status !== 'passed' && result.status !== 'interrupted') failed++;
    // After the list reporter's own summary, on a line of its own.
    await new Promise((resolve) => setImmediate(resolve));
    for (const [id, reason] of this.skipReasons)
      if (this.outcomes.get(id) === 'skipped') process.stdout.write(`\nskipped: ${reason}`);
    for (const [id, reason] of this.failReasons)
      if (this.outcomes.get(id) === 'failed') process.stdout.write(`\nfailed: ${reason}`);
    process.stdout.write(`\nplaywright: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
