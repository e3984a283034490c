import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Electronegativity (@doyensec/electronegativity) run in-process and offline over the app's
 * sources, and the table of explained findings in docs/security.md it is compared with
 * (test/unit/repo/security-audit.test.ts).
 */

/** The version the offline shims below were written against (package.json pins it). */
export const AUDITED_VERSION = '1.10.3';

/**
 * Checks not run, each for a reason docs/security.md gives: AVAILABLE_SECURITY_FIXES downloads
 * Electron's release list from GitHub with no timeout, so it could hang CI and fails offline.
 */
export const SKIPPED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

/** What the audit reads: every source folder of the app, and its manifest (the Electron version). */
export const AUDITED_PATHS = ['src', 'package.json'];

export interface AuditFinding {
  /** The check's id, e.g. OPEN_EXTERNAL_JS_CHECK. */
  check: string;
  /** Path from the project root, e.g. src/main/index.ts ("N/A" for a finding about no file). */
  file: string;
  line: number;
  /** The code (or CSP) the finding points at, when the check gives it. */
  sample: string;
  severity: string;
  confidence: string;
  description: string;
}

interface RawIssue {
  id: string;
  file: string;
  location: { line: number; column: number };
  sample?: string;
  severity: { name: string };
  confidence: { name: string };
  description: string;
}

type Runner = (options: Record<string, unknown>) => Promise<{
  issues: RawIssue[];
  errors: { file: string; message: string; tolerable: boolean }[];
}>;

/** Puts `exports` in Node's module cache as the module at `path`, before anyone requires it. */
function preload(require: NodeJS.Require, path: string, exports: unknown): void {
  const mod = new Module(path);
  mod.filename = path;
  mod.loaded = true;
  mod.exports = exports;
  require.cache[path] = mod;
}

/**
 * The runner, made offline. Electronegativity fetches translations at start (a 1 s timeout, then
 * a "Could not retrieve updated translations" line) and, in one check, Electron's release list
 * (no timeout). Its i18n module is replaced by one that loads the bundled English strings, and
 * its HTTP client by one that refuses at once, so no request ever leaves and nothing can hang.
 */
function loadOfflineRunner(projectRoot: string): Runner {
  const require = createRequire(join(projectRoot, 'package.json'));
  const pkgDir = dirname(require.resolve('@doyensec/electronegativity/package.json'));
  const version = (require('@doyensec/electronegativity/package.json') as { version: string })
    .version;
  if (version !== AUDITED_VERSION)
    throw new Error(
      `Electronegativity ${version} is installed; the offline shims in test/support/electronegativity.ts were written for ${AUDITED_VERSION}. Check them against the new version, then update AUDITED_VERSION.`,
    );

  const refuse = () => Promise.reject(new Error('the audit runs offline'));
  const offlineGot = Object.assign(refuse, { head: refuse, get: refuse });
  preload(require, require.resolve('got', { paths: [pkgDir] }), offlineGot);

  const i18nPath = join(pkgDir, 'dist', 'locales', 'i18n.js');
  const i18n = require(require.resolve('i18n', { paths: [pkgDir] })) as {
    configure(options: Record<string, unknown>): void;
    setLocale(locale: string): void;
  };
  preload(require, i18nPath, () => {
    // As the original configures it, without the download.
    i18n.configure({
      locales: ['en-US'],
      defaultLocale: 'en-US',
      directory: dirname(i18nPath),
      updateFiles: false,
      objectNotation: true,
      retryInDefaultLocale: true,
      register: globalThis,
    });
    i18n.setLocale('en-US');
    return Promise.resolve();
  });

  return require('@doyensec/electronegativity') as Runner;
}

/** Runs the audit over a copy of AUDITED_PATHS (so a build in out/ never changes what it sees). */
export async function runElectronAudit(projectRoot: string): Promise<AuditFinding[]> {
  const run = loadOfflineRunner(projectRoot);
  const scan = mkdtempSync(join(tmpdir(), 'order-desk-audit-'));
  try {
    for (const path of AUDITED_PATHS)
      cpSync(join(projectRoot, path), join(scan, path), { recursive: true });
    const result = await run({
      input: scan,
      isRelative: true,
      excludeFromScan: SKIPPED_CHECKS.map((c) => c.toLowerCase()),
    });
    const broken = result.errors.filter((e) => !e.tolerable);
    if (broken.length > 0)
      throw new Error(
        `Electronegativity could not parse: ${broken.map((e) => `${e.file}: ${e.message}`).join('; ')}`,
      );
    return result.issues
      .map((issue) => ({
        check: issue.id,
        file: issue.file === 'N/A' ? 'N/A' : issue.file.split('\\').join('/'),
        line: issue.location.line,
        sample: issue.sample ?? '',
        severity: issue.severity.name,
        confidence: issue.confidence.name,
        description: issue.description,
      }))
      .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  } finally {
    rmSync(scan, { recursive: true, force: true });
  }
}

export interface ExplainedFinding {
  check: string;
  file: string;
  /** Text the finding's sample must contain ('' when the check gives no sample). */
  code: string;
  why: string;
}

const TABLE_START = '<!-- audit-findings:start -->';
const TABLE_END = '<!-- audit-findings:end -->';

/**
 * The explained findings: the rows of the table between the audit-findings markers in
 * docs/security.md, columns Check | File | Code | Severity | Why. Backticks are taken off.
 */
export function readExplainedFindings(markdown: string): ExplainedFinding[] {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`docs/security.md has no ${TABLE_START} ... ${TABLE_END} table`);
  const rows = markdown
    .slice(start + TABLE_START.length, end)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|'))
    .slice(2); // the header and its --- line
  const bare = (cell: string) => cell.trim().replace(/^`(.*)`$/, '$1');
  return rows.map((row) => {
    const cells = row.slice(1, row.endsWith('|') ? -1 : undefined).split(' | ');
    if (cells.length !== 5) throw new Error(`A row of the findings table is not 5 cells: ${row}`);
    const [check, file, code, , why] = cells.map(bare) as [string, string, string, string, string];
    return { check, file, code: code === '—' ? '' : code, why };
  });
}

/** Whether a row of the table explains a finding: same check and file, and its code, if any. */
export const explains = (row: ExplainedFinding, finding: AuditFinding): boolean =>
  row.check === finding.check && row.file === finding.file && finding.sample.includes(row.code);

/** A finding written as a row of the table, for the failure message. */
export const asTableRow = (f: AuditFinding): string =>
  `| ${f.check} | \`${f.file}\` | ${f.sample ? `\`${f.sample.slice(0, 80)}\`` : '—'} | ${f.severity} | (why) |`;
