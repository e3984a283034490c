// Runs every check of `npm test` in turn (typecheck, lint, the Vitest suites, the Playwright
// suite), all of them even when one fails, echoing their output, and ends with one line that says
// what ran: the tests passed, failed and skipped per runner, and which steps failed. A suite that
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
let failed = false;
for (const step of STEPS) {
  const { code, out } = await run(step.script);
  let part = `${step.name} ${code === 0 ? 'ok' : `FAILED (exit ${code})`}`;
  if (step.summary) {
    const match = [...out.matchAll(new RegExp(step.summary, 'gm'))].pop();
    if (!match) {
      part = `${step.name} did not report (exit ${code})`;
      failed = true;
    } else {
      const [passed, failedTests, skipped] = match.slice(1).map(Number);
      part = `${step.name} ${passed} passed, ${failedTests} failed, ${skipped} skipped`;
      if (passed === 0) part += ' (NOTHING RAN)';
      if (code !== 0 || failedTests > 0 || passed === 0) failed = true;
    }
  } else if (code !== 0) failed = true;
  parts.push(part);
}
process.stdout.write(`\ntest: ${failed ? 'FAILED' : 'PASSED'}: ${parts.join('; ')}\n`);
process.exitCode = failed ? 1 : 0;
