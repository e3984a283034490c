import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run's output with a line per failed test ("failed: file › name: first line of the
 * error"), then one plain line, "vitest: N passed, N failed, N skipped", so that a run that
 * executed nothing (0 passed) is visible at a glance and a failure is named where CI's tail of
 * the output shows it.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
  ): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') {
          failed++;
          failures.push(
            `${mod.relativeModuleId} › ${test.fullName}: ${firstLine(result.errors?.[0])}`,
          );
        } else skipped++;
      }
      if (mod.state() === 'failed' && mod.children.size === 0) {
        failed++;
        failures.push(`${mod.relativeModuleId}: ${firstLine(mod.errors()[0])}`);
      }
    }
    failed += unhandledErrors.length;
    for (const error of unhandledErrors) failures.push(`unhandled error: ${firstLine(error)}`);
    // After the default reporter's summary block, each on a line of its own.
    setImmediate(() => {
      for (const failure of failures) process.stdout.write(`\nfailed: ${failure}`);
      process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    });
  }
}

/** The first line of an error's message, kept short: enough to name what failed. */
function firstLine(error: unknown): string {
  const message =
    error && typeof error === 'object' && 'message' in error
      ? String(error.message)
      : String(error);
  const line = message.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
