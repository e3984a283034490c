import { z } from 'zod';
import { ProtocolListQuery } from './protocol-views';

/**
 * CSV import and export of protocols over IPC (the `protocols.import*`, `exportCsv` and
 * `csvTemplate` calls). The columns themselves are main's business (docs/csv.md).
 */

/** The most data rows (protocols) one import file may hold. */
export const CSV_IMPORT_ROWS_MAX = 10_000;

/**
 * The longest CSV text a call takes, in characters: 10,000 rows of a wide file (about 800
 * characters a row) fit with room to spare. The browser host's WebSocket accepts a message of
 * this text encoded as JSON (docs/csv.md, "Limits").
 */
export const CSV_TEXT_MAX = 8 * 1024 * 1024;

/** The whole text of a CSV file, as the user's file held it. */
export const CsvText = z
  .string()
  .max(
    CSV_TEXT_MAX,
    `the file is too large: at most ${CSV_TEXT_MAX / 1024 / 1024} MB of text (about ${CSV_IMPORT_ROWS_MAX.toLocaleString('en-US')} protocols)`,
  );

export const CsvImportArgs = z.object({ csv: CsvText });

/**
 * What to do with a row whose Patient ID already names another person: the same person with the
 * stored details, the same person with the row's details everywhere, or the suggested new ID.
 */
export const CsvPatientIdChoice = z.enum(['use-stored', 'update-everywhere', 'new-id']);
export type CsvPatientIdChoice = z.infer<typeof CsvPatientIdChoice>;

/** Commit: the same text again, and how many protocols the user saw ready (optional check). */
export const CsvImportCommitArgs = CsvImportArgs.extend({
  expectedReady: z.int().min(0).optional(),
  /** The answer for each flagged row, by its row number (every flagged row needs one). */
  patientIds: z.record(z.string().regex(/^\d{1,6}$/), CsvPatientIdChoice).optional(),
});

/** Why a row cannot be imported: the column (null: the row as a whole) and what to fix. */
export const CsvRowReason = z.object({ column: z.string().nullable(), message: z.string() });
export type CsvRowReason = z.infer<typeof CsvRowReason>;

/** A row that becomes a protocol: who it is for, and anything worth a second look. */
export const CsvGoodRow = z.object({
  row: z.int().min(1),
  /** "Ada Lovelace" */
  patient: z.string(),
  sourceId: z.string(),
  /** "3 products · 30 days · Standard · One time" */
  summary: z.string(),
  warnings: z.array(z.string()),
  /** The row's Patient ID already names another person (here, or on an earlier row). */
  patientIdClash: z
    .object({
      otherName: z.string(),
      /** Where the other name is: 'store' (Order Desk) or the earlier row's number. */
      otherRow: z.int().min(1).nullable(),
      suggestedId: z.string(),
    })
    .optional(),
});
export type CsvGoodRow = z.infer<typeof CsvGoodRow>;

/** A row left out, with every reason. */
export const CsvBadRow = z.object({
  row: z.int().min(1),
  /** The patient as far as the row says ("Ada Lovelace (PAT-1)"), or null. */
  label: z.string().nullable(),
  reasons: z.array(CsvRowReason).min(1),
});
export type CsvBadRow = z.infer<typeof CsvBadRow>;

export const CsvImportPreview = z.object({
  /** Data rows read (empty rows not counted). */
  total: z.int().min(0),
  ready: z.int().min(0),
  /** False when the catalog was never synced: product IDs could not be checked (docs/csv.md). */
  catalogChecked: z.boolean(),
  good: z.array(CsvGoodRow),
  bad: z.array(CsvBadRow),
});
export type CsvImportPreview = z.infer<typeof CsvImportPreview>;

export const CsvImportResult = z.object({
  /** Local drafts created, each queued for the server like any new protocol. */
  created: z.int().min(0),
  /** Rows left out for their problems. */
  skipped: z.int().min(0),
});
export type CsvImportResult = z.infer<typeof CsvImportResult>;

/** Export: the protocols the list shows (its search, filters and sort). */
export const CsvExportArgs = ProtocolListQuery.omit({ limit: true, cursor: true });
export type CsvExportArgs = z.input<typeof CsvExportArgs>;
