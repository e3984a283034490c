import { ACTION_WORDS } from '@shared/activity-words';
import type { CsvFile } from '@shared/csv-file';
import { writeCsv, type CsvCell } from '../csv-text';
import type { ActivityEntry, ActivityMatch, ActivityRepo } from './activity-repo';

/**
 * The activity record as a spreadsheet (docs/csv.md, "Activity record export"): one row per
 * entry the filters match, newest first, with every id it touched and its hashes, so that a
 * file handed to an auditor can be checked against the chain.
 */
const COLUMNS: readonly [header: string, cell: (entry: ActivityEntry) => CsvCell][] = [
  ['Entry', (e) => e.seq],
  ['Local time', (e) => localTime(e.atLocal)],
  ['Local time (UTC)', (e) => e.atLocal],
  ['Server time (UTC)', (e) => e.atServer],
  ['Staff', (e) => e.staff],
  ['OS account', (e) => e.osUser],
  ['Desk', (e) => e.deskName],
  ['Desk ID', (e) => e.deskId],
  ['Action', (e) => ACTION_WORDS[e.action]],
  ['Action code', (e) => e.action],
  ['Patient IDs', (e) => ids(e.subjects.patients)],
  ['Protocol IDs', (e) => ids(e.subjects.protocols)],
  ['Server protocol IDs', (e) => ids(e.subjects.serverProtocols)],
  ['Order IDs', (e) => ids(e.subjects.orders)],
  ['Batch IDs', (e) => ids(e.subjects.batches)],
  ['Connection ID', (e) => e.subjects.connection],
  ['Detail', (e) => (Object.keys(e.detail).length ? JSON.stringify(e.detail) : '')],
  ['Previous hash', (e) => e.prevHash],
  ['Hash', (e) => e.hash],
];

export const ACTIVITY_EXPORT_HEADER: readonly string[] = COLUMNS.map(([header]) => header);

/** Every entry matching, read one at a time and written as it is read. */
export function exportActivityCsv(
  repo: Pick<ActivityRepo, 'matching'>,
  match: ActivityMatch,
): CsvFile {
  let rows = 0;
  function* lines(): Generator<CsvCell[]> {
    for (const entry of repo.matching(match)) {
      rows++;
      yield COLUMNS.map(([, cell]) => cell(entry));
    }
  }
  const csv = writeCsv(ACTIVITY_EXPORT_HEADER, lines());
  return { csv, rows };
}

const ids = (list: readonly string[] | undefined) => list?.join(' ') ?? '';

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The time on this computer's clock, as a spreadsheet reads it: `2026-11-25 15:05:09`. */
function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
