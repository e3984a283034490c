// Runs every check of `npm test` in turn (typecheck, lint, the Vitest suites, the Playwright
// suite), all of them even when one fails, echoing their output. It ends with the runners'
// "failed: …" lines repeated (so the tail of the output names every failure), then two lines
// that say what ran: the tests passed, failed and skipped per runner and which steps failed, then
// the totals alone as `total: N passed, N failed, N skipped` (the form CI reads). A suite that
// executed nothing or never reported shows as such, and fails the run.
import { spawn } from 'node:child_process';

const STEPS = [
  { name: 'typecheck', script: 'typecheck' },
  { name: 'lint', script: 'lint' },
  {
    name: 'vitest',
    script: 'test:unit',
    summary: /^vitest: (\d+) passed, (\d+) failed, (\d+) skipped$/m,
  },
  {
    name: 'playwright',
    script: 'test:e2e',
    summary: /^playwright: (\d+) passed, (\d+) failed, (\d+) skipped$/m,
  },
];

function run(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { stdio: ['inherit', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

const parts = [];
/** Every "failed: …" line the runners printed, repeated just above the closing lines. */
const failures = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
let failed = false;
for (const step of STEPS) {
  const { code, out } = await run(step.script);
  for (const line of out.match(/^failed: .*$/gm) ?? []) failures.push(`${step.name} ${line}`);
  let part = `${step.name} ${code === 0 ? 'ok' : `FAILED (exit ${code})`}`;
  if (step.summary) {
    const match = [...out.matchAll(new RegExp(step.summary, 'gm'))].pop();
    if (!match) {
      part = `${step.name} did not report (exit ${code})`;
      failed = true;
    } else {
      const [passed, failedTests, skipped] = match.slice(1).map(Number);
      totals.passed += passed;
      totals.failed += failedTests;
      totals.skipped += skipped;
      part = `${step.name} ${passed} passed, ${failedTests} failed, ${skipped} skipped`;
      if (passed === 0) part += ' (NOTHING RAN)';
      if (code !== 0 || failedTests > 0 || passed === 0) failed = true;
    }
  } else if (code !== 0) failed = true;
  parts.push(part);
}
// A step that failed without a test failing (typecheck, lint, a suite that did not report) still
// counts as a failure in the totals, so the last line never reads clean for a failed run.
const stepFailures = failed && totals.failed === 0 ? 1 : 0;
if (failures.length > 0) process.stdout.write(`\n${failures.join('\n')}\n`);
process.stdout.write(`\ntest: ${failed ? 'FAILED' : 'PASSED'}: ${parts.join('; ')}\n`);
process.stdout.write(
  `total: ${totals.passed} passed, ${totals.failed + stepFailures} failed, ${totals.skipped} skipped\n`,
);
process.exitCode = failed ? 1 : 0;
