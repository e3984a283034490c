import { create } from 'zustand';
import type { IpcError } from '@shared/ipc';
import {
  CSV_TEXT_MAX,
  CsvText,
  type CsvImportPreview,
  type CsvImportResult,
  type CsvPatientIdChoice,
} from '@shared/protocol-csv-views';
import { call } from '../lib/ipc';

/**
 * The CSV import (#/protocols/import): the file chosen, main's preview of it, and the commit.
 * The text stays here between preview and commit; main parses it again to import, so what is
 * imported is exactly what the preview showed (or the commit refuses, when it no longer is).
 */
interface ProtocolImportStore {
  phase: 'choose' | 'reading' | 'preview' | 'importing';
  fileName: string | null;
  csv: string | null;
  preview: CsvImportPreview | null;
  /** Why the file cannot be imported (the whole file), or why the import failed. */
  error: IpcError | null;
  /** The answers for rows whose Patient ID names another person, by row number. */
  patientIds: Record<string, CsvPatientIdChoice>;
  /** Answers one flagged row (null: takes the answer back). */
  choosePatientId(row: number, choice: CsvPatientIdChoice | null): void;
  /** Gives every flagged row the same answer. */
  chooseAllPatientIds(choice: CsvPatientIdChoice): void;
  /** Reads a chosen file and asks main for its preview. */
  choose(file: File): Promise<void>;
  /** Imports the ready rows; answers what was created, or null (the error is kept). */
  commit(): Promise<CsvImportResult | null>;
  reset(): void;
}

const initial = {
  phase: 'choose' as const,
  fileName: null,
  csv: null,
  preview: null,
  error: null,
  patientIds: {},
};

/** A failure found here, before main is asked. */
const localError = (message: string): IpcError => ({
  kind: 'validation',
  message,
  fieldErrors: [],
});

export const useProtocolImportStore = create<ProtocolImportStore>((set, get) => ({
  ...initial,

  async choose(file) {
    set({ ...initial, phase: 'reading', fileName: file.name });
    // A file bigger than this has more characters than a call may carry: say so before reading it.
    if (file.size > CSV_TEXT_MAX * 4) {
      set({ phase: 'choose', error: localError(tooLarge()) });
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch {
      set({ phase: 'choose', error: localError('The file could not be read. Choose it again.') });
      return;
    }
    if (get().fileName !== file.name) return;
    const checked = CsvText.safeParse(text);
    if (!checked.success) {
      set({ phase: 'choose', error: localError(tooLarge()) });
      return;
    }
    const result = await call('protocols.importPreview', { csv: text });
    if (get().fileName !== file.name || get().phase !== 'reading') return;
    if (!result.ok) {
      set({ phase: 'choose', error: result.error });
      return;
    }
    set({ phase: 'preview', csv: text, preview: result.value });
  },

  async commit() {
    const { csv, preview } = get();
    if (!csv || !preview || preview.ready === 0) return null;
    set({ phase: 'importing', error: null });
    const result = await call('protocols.importCommit', {
      csv,
      expectedReady: preview.ready,
      patientIds: get().patientIds,
    });
    if (!result.ok) {
      set({ phase: 'preview', error: result.error });
      return null;
    }
    set({ ...initial });
    return result.value;
  },

  choosePatientId(row, choice) {
    const patientIds = { ...get().patientIds };
    if (choice === null) delete patientIds[String(row)];
    else patientIds[String(row)] = choice;
    set({ patientIds });
  },

  chooseAllPatientIds(choice) {
    const flagged = get().preview?.good.filter((g) => g.patientIdClash) ?? [];
    set({ patientIds: Object.fromEntries(flagged.map((g) => [String(g.row), choice])) });
  },

  reset() {
    set({ ...initial });
  },
}));

function tooLarge(): string {
  return `The file is too large: at most ${CSV_TEXT_MAX / 1024 / 1024} MB of text (about 10,000 protocols). Split it into smaller files.`;
}
