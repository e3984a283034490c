import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run's output with one plain line, "vitest: N passed, N failed, N skipped", so that a
 * run that executed nothing (0 passed) is visible at a glance and to CI.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
  ): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (mod.state() === 'failed' && mod.children.size === 0) failed++;
    }
    failed += unhandledErrors.length;
    // After the default reporter's summary block, on a line of its own.
    setImmediate(() =>
      process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`),
    );
  }
}
