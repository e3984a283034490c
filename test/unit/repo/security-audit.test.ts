import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  asTableRow,
  explains,
  readExplainedFindings,
  runElectronAudit,
  type AuditFinding,
  type ExplainedFinding,
} from '@test/support/electronegativity';
import { REPO_ROOT, repoFile } from '@test/support/repo-files';

/**
 * The Electron security audit, in `npm test`: Electronegativity over the app's sources, offline.
 * Every finding must be explained by a row of the table in docs/security.md, and every row must
 * still explain a finding, so the document and the gate cannot drift apart. A new finding fails
 * here with the row to fill in (or the code to fix).
 */
const ROOT = REPO_ROOT;
const SECURITY_DOC = readFileSync(repoFile('docs', 'security.md'), 'utf8');

describe('Electronegativity audit', () => {
  let findings: AuditFinding[];
  let explained: ExplainedFinding[];

  beforeAll(async () => {
    findings = await runElectronAudit(ROOT);
    explained = readExplainedFindings(SECURITY_DOC);
  }, 120_000);

  it('ran its checks over the app (the window and its guards are where it looked)', () => {
    // A run that read nothing would pass the other tests vacuously; these findings are about
    // code that exists, so the audit saw main, the renderer's page and the manifest.
    const files = new Set(findings.map((f) => f.file));
    expect(files).toContain('src/main/index.ts');
    expect(files).toContain('src/renderer/index.html');
    expect(files).toContain('package.json');
  });

  it('finds nothing that docs/security.md does not explain', () => {
    const unexplained = findings.filter((f) => !explained.some((row) => explains(row, f)));
    expect(
      unexplained.map(asTableRow),
      'Fix these, or explain each in the audit table of docs/security.md',
    ).toEqual([]);
  });

  it('explains nothing that is no longer found (no stale rows)', () => {
    const stale = explained.filter((row) => !findings.some((f) => explains(row, f)));
    expect(
      stale.map((row) => `${row.check} ${row.file} ${row.code}`),
      'These rows of docs/security.md match no finding: remove them',
    ).toEqual([]);
  });

  it('has a reason for every explained finding', () => {
    for (const row of explained) expect(row.why.length, row.check).toBeGreaterThan(40);
  });

  it('finds no high-severity problem and none of the checks that would be a real hole', () => {
    expect(findings.filter((f) => f.severity === 'HIGH' || f.severity === 'CRITICAL')).toEqual([]);
    const holes = [
      'CONTEXT_ISOLATION_JS_CHECK',
      'NODE_INTEGRATION_JS_CHECK',
      'SANDBOX_JS_CHECK',
      'WEB_SECURITY_JS_CHECK',
      'INSECURE_CONTENT_JS_CHECK',
      'LIMIT_NAVIGATION_GLOBAL_CHECK',
      'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
      'AUXCLICK_JS_CHECK',
    ];
    expect(findings.filter((f) => holes.includes(f.check))).toEqual([]);
  });
});

describe('readExplainedFindings', () => {
  it('reads the rows between the markers, without backticks, — as no code', () => {
    const rows = readExplainedFindings(
      [
        'text',
        '<!-- audit-findings:start -->',
        '| Check | File | Code | Severity | Why |',
        '|---|---|---|---|---|',
        '| OPEN_EXTERNAL_JS_CHECK | `src/main/index.ts` | `shell.openExternal(url)` | MEDIUM | Only http(s), checked first. |',
        '| CSP_GLOBAL_CHECK | `src/main/window-policy.ts` | — | LOW | The header is a constant. |',
        '<!-- audit-findings:end -->',
        '| NOT_A_ROW | x | y | z | w |',
      ].join('\n'),
    );
    expect(rows).toEqual([
      {
        check: 'OPEN_EXTERNAL_JS_CHECK',
        file: 'src/main/index.ts',
        code: 'shell.openExternal(url)',
        why: 'Only http(s), checked first.',
      },
      {
        check: 'CSP_GLOBAL_CHECK',
        file: 'src/main/window-policy.ts',
        code: '',
        why: 'The header is a constant.',
      },
    ]);
  });

  it('matches a finding by check, file and code; a new finding elsewhere is unexplained', () => {
    const row: ExplainedFinding = {
      check: 'OPEN_EXTERNAL_JS_CHECK',
      file: 'src/main/index.ts',
      code: 'shell.openExternal(url)',
      why: '',
    };
    const finding: AuditFinding = {
      check: 'OPEN_EXTERNAL_JS_CHECK',
      file: 'src/main/index.ts',
      line: 47,
      sample: 'await shell.openExternal(url);',
      severity: 'MEDIUM',
      confidence: 'TENTATIVE',
      description: '',
    };
    expect(explains(row, finding)).toBe(true);
    expect(explains(row, { ...finding, line: 90 })).toBe(true);
    expect(explains(row, { ...finding, file: 'src/main/other.ts' })).toBe(false);
    expect(explains(row, { ...finding, sample: 'shell.openExternal(userInput)' })).toBe(false);
    expect(explains(row, { ...finding, check: 'PRELOAD_JS_CHECK' })).toBe(false);
  });

  it('refuses a document without the table', () => {
    expect(() => readExplainedFindings('# Security\n')).toThrow(/audit-findings/);
  });
});
