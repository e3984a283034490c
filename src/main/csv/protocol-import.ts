import type { ProtocolRequest } from '@shared/api';
import { ORDER_TYPE_WORDS, SHIPPING_METHOD_WORDS } from '@shared/order-words';
import {
  CSV_IMPORT_ROWS_MAX,
  type CsvBadRow,
  type CsvGoodRow,
  type CsvImportPreview,
} from '@shared/protocol-csv-views';
import { peopleOfId, personKey, suggestFreeId } from '../protocols/patient-identity';
import type { LocalStore } from '../stores';
import { CsvSyntaxError, readCsv, type CsvRow } from '../csv-text';
import { mapHeader, type ColumnMap } from './csv-columns';
import { parseProtocolRow, rowLabel, type ImportCatalog } from './protocol-row';

/** The file as a whole cannot be read as protocols: each problem, for people. */
export class CsvFileError extends Error {
  override readonly name = 'CsvFileError';
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
  }
}

/** 1-based line of a character index (for a message about the file's bytes). */
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

const SAVE_AS_UTF8 =
  'Save it from your spreadsheet as "CSV UTF-8 (comma delimited)" and choose it again.';

/** Reads the file's text into the column map and its data rows, or throws CsvFileError. */
export function readProtocolsFile(text: string): { map: ColumnMap; rows: CsvRow[] } {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    throw new CsvFileError([
      `This is not a CSV text file (it looks like a workbook or UTF-16 text). ${SAVE_AS_UTF8}`,
    ]);
  }
  const bad = text.indexOf('\uFFFD');
  if (bad >= 0) {
    throw new CsvFileError([
      `The file is not UTF-8 text: some characters could not be read (first on line ${lineOf(text, bad)}). ${SAVE_AS_UTF8}`,
    ]);
  }
  let table;
  try {
    table = readCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new CsvFileError([error.message]);
    throw error;
  }
  const { header, rows } = table;
  if (header.length === 0) throw new CsvFileError(['The file is empty.']);
  if (header.length === 1 && /[;\t]/.test(header[0]!)) {
    throw new CsvFileError([
      `The columns are separated by ${header[0]!.includes(';') ? 'semicolons' : 'tabs'}; Order Desk reads commas. ${SAVE_AS_UTF8}`,
    ]);
  }
  const mapped = mapHeader(header, (i) => rows.some((r) => (r.cells[i] ?? '').trim() !== ''));
  if ('problems' in mapped) throw new CsvFileError(mapped.problems);
  if (rows.length === 0)
    throw new CsvFileError(['The file has a header row but no protocols below it.']);
  if (rows.length > CSV_IMPORT_ROWS_MAX) {
    throw new CsvFileError([
      `The file has ${rows.length.toLocaleString('en-US')} rows; at most ${CSV_IMPORT_ROWS_MAX.toLocaleString('en-US')} protocols can be imported at once. Split it into smaller files.`,
    ]);
  }
  return { map: mapped.map, rows };
}

/** The catalog mirror, or an unchecked one when it was never synced. */
export function importCatalog(store: LocalStore): ImportCatalog {
  const products = new Map(store.products.list().map((p) => [p.id, p]));
  return { checked: products.size > 0, get: (id) => products.get(id) };
}

/** Same patient, same products and doses: what makes two protocols the same order. */
function sameOrderKey(request: {
  customer: { sourceId: string };
  lineItems: readonly Pick<
    ProtocolRequest['lineItems'][number],
    'productId' | 'quantity' | 'administration'
  >[];
}): string {
  const items = request.lineItems
    .map((li) => {
      const a = li.administration;
      return `${li.productId}:${li.quantity}:${a ? `${a.morning}-${a.afternoon}-${a.evening}-${a.sleep}` : '-'}`;
    })
    .sort()
    .join(',');
  return `${request.customer.sourceId.trim().toLowerCase()}|${items}`;
}

export interface ImportPlan {
  preview: CsvImportPreview;
  /** The good rows' requests, in file order. */
  requests: ProtocolRequest[];
}

/**
 * Flags each good row whose Patient ID already names another person: in Order Desk (the ID's
 * protocols, else its orders), else on an earlier row of the file. The rows of one new person
 * under an ID share one suggested new ID, free here and in the file.
 */
function flagPatientIds(store: LocalStore, good: (CsvGoodRow & { request: ProtocolRequest })[]) {
  const taken = new Set(good.map((g) => g.sourceId));
  const stored = new Map<string, { key: string; name: string }[]>();
  const firstInFile = new Map<string, { key: string; name: string; row: number }>();
  const suggested = new Map<string, string>();
  for (const g of good) {
    const c = g.request.customer;
    const key = personKey(c);
    let people = stored.get(c.sourceId);
    if (!people) {
      people = peopleOfId(store.db, c.sourceId).map((p) => ({ key: p.key, name: p.name }));
      stored.set(c.sourceId, people);
    }
    const first = firstInFile.get(c.sourceId);
    if (!first) firstInFile.set(c.sourceId, { key, name: g.patient, row: g.row });
    const other =
      people.length > 0
        ? people.some((p) => p.key === key)
          ? null
          : { otherName: people.map((p) => p.name).join(' and '), otherRow: null }
        : first && first.key !== key
          ? { otherName: first.name, otherRow: first.row }
          : null;
    if (!other) continue;
    const group = `${c.sourceId}\u0000${key}`;
    let id = suggested.get(group);
    if (id === undefined) {
      id = suggestFreeId(store.db, c.sourceId, taken);
      taken.add(id);
      suggested.set(group, id);
    }
    g.patientIdClash = { ...other, suggestedId: id };
  }
}

/**
 * What an import of `text` would do, writing nothing: every row checked by the shared rules and
 * the catalog mirror; a row repeating an earlier row's patient and products is left out; a row
 * matching a protocol already here is imported with a warning.
 */
export function planImport(store: LocalStore, text: string): ImportPlan {
  const { map, rows } = readProtocolsFile(text);
  const catalog = importCatalog(store);
  const good: (CsvGoodRow & { request: ProtocolRequest })[] = [];
  const bad: CsvBadRow[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { row, cells } of rows) {
    const parsed = parseProtocolRow(cells, map, catalog);
    if (!parsed.ok) {
      bad.push({ row, label: rowLabel(cells, map), reasons: parsed.reasons });
      continue;
    }
    const key = sameOrderKey(parsed.request);
    const first = firstRowOf.get(key);
    const c = parsed.request.customer;
    if (first !== undefined) {
      bad.push({
        row,
        label: rowLabel(cells, map),
        reasons: [
          {
            column: null,
            message: `repeats row ${first}: the same patient with the same products and doses. Only row ${first} is imported; delete one of the two rows, or change this one.`,
          },
        ],
      });
      continue;
    }
    firstRowOf.set(key, row);
    const r = parsed.request;
    good.push({
      row,
      patient: `${c.firstName} ${c.lastName}`,
      sourceId: c.sourceId,
      summary: `${r.lineItems.length} product${r.lineItems.length === 1 ? '' : 's'} · ${r.daysSupply} days · ${SHIPPING_METHOD_WORDS[r.shippingMethod]} · ${ORDER_TYPE_WORDS[r.orderType]}`,
      warnings: parsed.warnings,
      request: r,
    });
  }
  flagPatientIds(store, good);
  const existing = new Set(
    store.protocols.draftsBySourceIds(good.map((g) => g.sourceId)).map((d) => sameOrderKey(d)),
  );
  for (const g of good) {
    if (existing.has(sameOrderKey(g.request)))
      g.warnings.push(
        `Order Desk already has a protocol for patient ${g.sourceId} with these products; importing makes a second one.`,
      );
  }
  return {
    preview: {
      total: rows.length,
      ready: good.length,
      catalogChecked: catalog.checked,
      good: good.map(({ request: _request, ...view }) => view),
      bad,
    },
    requests: good.map((g) => g.request),
  };
}
