import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/**
 * The one place CSV text is read and written (csv-parse, csv-stringify). Written files start with
 * a UTF-8 byte-order mark and end lines with CRLF, which any desktop spreadsheet opens as UTF-8.
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab or CR first, after any
 * apostrophes) gets a leading apostrophe, which reading takes off again: a file exported and
 * read back gives the same text.
 */

export type CsvCell = string | number | null | undefined;

// Apostrophes before the formula character count too, so that a cell the user wrote as '=x also
// survives the round trip (written ''=x, read '=x).
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** A cell as written: text, with a formula-looking start defused. */
function writeCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  const text = String(cell);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell as read: the apostrophe that defused a formula-looking start is removed. */
function readCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** Rows stringified at a time: a long iterable is never held whole as cell arrays. */
const CHUNK_ROWS = 1000;

// csv-stringify quotes a field holding the record delimiter (CRLF) but not a bare LF or CR,
// which a spreadsheet would still take as the end of the row: every line break is quoted.
const STRINGIFY_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;

/**
 * A whole CSV file: a header row, then one line per row. The rows are read once, a chunk at a
 * time, so an iterable that makes each row as it is read (an export of 100,000 orders) holds only
 * the text written so far and one chunk of cells.
 */
export function writeCsv(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  const parts = [stringify([header.map(writeCell)], { ...STRINGIFY_OPTIONS, bom: true })];
  let chunk: string[][] = [];
  for (const row of rows) {
    chunk.push(row.map(writeCell));
    if (chunk.length === CHUNK_ROWS) {
      parts.push(stringify(chunk, STRINGIFY_OPTIONS));
      chunk = [];
    }
  }
  if (chunk.length > 0) parts.push(stringify(chunk, STRINGIFY_OPTIONS));
  return parts.join('');
}

/**
 * One data row of a file read: its cells and its row number as a spreadsheet shows it (the
 * header is row 1; a field with line breaks inside is still one row; empty rows count).
 */
export interface CsvRow {
  row: number;
  cells: string[];
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

/** The file is not CSV at all (an unterminated quote, ...): nothing of it can be used. */
export class CsvSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

const isEmptyRecord = (record: readonly string[]) => record.every((cell) => cell.trim() === '');

/**
 * Reads a CSV file: the first non-empty row is the header (trimmed), the non-empty rows after it
 * are data rows, each with its row number. Rows may have more or fewer cells than the header (the
 * caller says what that means for its columns).
 */
export function readCsv(text: string): CsvTable {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true }) as string[][];
  } catch (error) {
    if (error instanceof CsvError)
      throw new CsvSyntaxError(`The file is not valid CSV: ${error.message}`);
    throw error;
  }
  const headerIndex = records.findIndex((record) => !isEmptyRecord(record));
  if (headerIndex < 0) return { header: [], rows: [] };
  const rows: CsvRow[] = [];
  for (let i = headerIndex + 1; i < records.length; i++) {
    const record = records[i]!;
    if (!isEmptyRecord(record)) rows.push({ row: i + 1, cells: record.map(readCell) });
  }
  return { header: records[headerIndex]!.map((cell) => readCell(cell).trim()), rows };
}
