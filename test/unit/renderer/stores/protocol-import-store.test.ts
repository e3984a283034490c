import { beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult, OrderDeskApi } from '@shared/ipc';
import { CSV_TEXT_MAX, type CsvImportPreview } from '@shared/protocol-csv-views';
import { rendererWindow } from '@test/support/renderer-window';

/** window.orderDesk as the store sees it: every call recorded, answered from `answers`. */
const calls: { channel: string; args: Record<string, unknown> }[] = [];
const answers: Record<string, IpcResult<unknown>> = {};
globalThis.window = rendererWindow({
  call: async (channel: string, args: Record<string, unknown>) => {
    calls.push({ channel, args });
    return answers[channel]!;
  },
  on: () => () => undefined,
} as unknown as OrderDeskApi);

const { useProtocolImportStore } = await import('@renderer/stores/protocol-import-store');
const store = () => useProtocolImportStore.getState();

const PREVIEW: CsvImportPreview = {
  total: 2,
  ready: 1,
  catalogChecked: true,
  good: [{ row: 2, patient: 'Ada Lovelace', sourceId: 'P1', summary: '1 product', warnings: [] }],
  bad: [{ row: 3, label: 'Bo Ek (P2)', reasons: [{ column: 'ZIP code', message: 'is required' }] }],
};
const file = (text: string, name = 'patients.csv') => new File([text], name, { type: 'text/csv' });

beforeEach(() => {
  calls.length = 0;
  store().reset();
  answers['protocols.importPreview'] = { ok: true, value: PREVIEW };
  answers['protocols.importCommit'] = { ok: true, value: { created: 1, skipped: 1 } };
});

describe('protocol import store', () => {
  it('previews the file, then imports the same text with the count the user saw', async () => {
    await store().choose(file('Patient ID\r\nP1\r\n'));
    expect(store()).toMatchObject({ phase: 'preview', fileName: 'patients.csv', preview: PREVIEW });
    expect(calls).toEqual([
      { channel: 'protocols.importPreview', args: { csv: 'Patient ID\r\nP1\r\n' } },
    ]);
    expect(await store().commit()).toEqual({ created: 1, skipped: 1 });
    expect(calls[1]).toEqual({
      channel: 'protocols.importCommit',
      args: { csv: 'Patient ID\r\nP1\r\n', expectedReady: 1, patientIds: {} },
    });
    expect(store()).toMatchObject({ phase: 'choose', preview: null, csv: null });
  });

  it('keeps the preview and says why when the import is refused', async () => {
    await store().choose(file('x'));
    answers['protocols.importCommit'] = {
      ok: false,
      error: { kind: 'conflict', message: 'The file now gives 0 protocols', fieldErrors: [] },
    };
    expect(await store().commit()).toBeNull();
    expect(store()).toMatchObject({ phase: 'preview', preview: PREVIEW });
    expect(store().error?.message).toMatch(/now gives 0/);
  });

  it('refuses a file too large for the contract without sending it', async () => {
    await store().choose(file('x'.repeat(CSV_TEXT_MAX + 1), 'huge.csv'));
    expect(calls).toEqual([]);
    expect(store()).toMatchObject({ phase: 'choose', preview: null });
    expect(store().error?.message).toMatch(/^The file is too large/);
  });

  it('shows a whole-file refusal and lets another file be chosen', async () => {
    answers['protocols.importPreview'] = {
      ok: false,
      error: {
        kind: 'validation',
        message: 'The file is empty.',
        fieldErrors: [{ path: ['csv'], message: 'The file is empty.' }],
      },
    };
    await store().choose(file(''));
    expect(store()).toMatchObject({ phase: 'choose', preview: null, fileName: 'patients.csv' });
    expect(store().error?.fieldErrors).toHaveLength(1);
  });
});
