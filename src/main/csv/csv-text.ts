import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/**
 * The one place CSV text is read and written (csv-parse and csv-stringify, from the node-csv
 * project): quoting, commas and newlines inside fields, a byte-order mark, CRLF or LF.
 *
 * Written files start with a UTF-8 byte-order mark and end lines with CRLF, which is what a
 * spreadsheet on any desktop opens as UTF-8 without asking. A cell that a spreadsheet would run
 * as a formula (it starts with =, +, -, @, a tab or a carriage return, after any apostrophes) is written with a leading
 * apostrophe, and reading takes exactly that apostrophe off again, so a file exported and read
 * back gives the same text.
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

/** A whole CSV file: a header row, then one line per row. */
export function writeCsv(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  const records: string[][] = [header.map(writeCell)];
  for (const row of rows) records.push(row.map(writeCell));
  // csv-stringify quotes a field holding the record delimiter (CRLF) but not a bare LF or CR,
  // which a spreadsheet would still take as the end of the row: every line break is quoted.
  return stringify(records, { bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ });
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
