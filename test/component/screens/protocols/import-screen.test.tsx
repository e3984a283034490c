import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CsvImportPreview } from '@shared/protocol-csv-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import ImportScreen from '@renderer/screens/protocols/ImportScreen';
import { useProtocolsStore } from '@renderer/stores/protocols-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, refuse, type Handlers } from '@test/support/component/fake-order-desk';

const CSV = 'firstName,lastName,sourceId,productId\nAda,Lovelace,PAT-ADA-1,101\n';

/** main's preview of the file: two rows ready (one whose Patient ID names another), one bad. */
const PREVIEW = CsvImportPreview.parse({
  total: 3,
  ready: 2,
  catalogChecked: false,
  good: [
    {
      row: 2,
      patient: 'Ada Lovelace',
      sourceId: 'PAT-ADA-1',
      summary: '1 product · 30 days · Standard · One time',
      warnings: [],
    },
    {
      row: 3,
      patient: 'Alan Turing',
      sourceId: 'PAT-GH-2',
      summary: '2 products · 60 days · Express · One time',
      warnings: ['Krill Oil 500 mg is backordered'],
      patientIdClash: { otherName: 'Grace Hopper', otherRow: null, suggestedId: 'PAT-GH-2-2' },
    },
  ],
  bad: [
    {
      row: 4,
      label: null,
      reasons: [
        { column: 'productId', message: 'is not a number' },
        { column: null, message: 'has no patient' },
      ],
    },
  ],
});

function renderImport(handlers: Handlers) {
  const desk = installOrderDesk(handlers);
  window.history.replaceState(null, '', '#/protocols/import');
  render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/protocols/import">
        <ImportScreen />
      </Route>
    </Router>,
  );
  return desk;
}

/** The file chosen (jsdom's File cannot read itself back: its text is given as a browser would). */
const chooseFile = (user: ReturnType<typeof userEvent.setup>, text = CSV) =>
  user.upload(
    screen.getByLabelText('Choose a CSV file…'),
    Object.assign(new File([text], 'patients.csv', { type: 'text/csv' }), {
      text: () => Promise.resolve(text),
    }),
  );

beforeEach(() => {
  useToastStore.setState({ toasts: [] });
  useProtocolsStore.getState().reset();
});

describe('ImportScreen: a CSV file previewed, then imported as drafts', () => {
  it('previews the file (BadRows, GoodRows) and imports the ready rows once each flagged row is answered', async () => {
    const desk = renderImport({
      'protocols.importPreview': () => PREVIEW,
      'protocols.importCommit': () => ({ created: 2, skipped: 1 }),
    });
    const user = userEvent.setup();
    await chooseFile(user);
    const heading = await screen.findByRole('heading', { level: 2, name: 'patients.csv' });
    expect(document.activeElement).toBe(heading);
    expect(desk.argsOf('protocols.importPreview')).toEqual([{ csv: CSV }]);
    expect([
      screen.getByTestId('import-ready').textContent,
      screen.getByTestId('import-bad').textContent,
    ]).toEqual(['2', '1']);
    expect(screen.getByText(/^The catalog has not been synced/)).toBeTruthy();

    const bad = screen.getByRole('list', { name: 'Rows with problems' });
    expect(within(bad).getByText('No patient given')).toBeTruthy();
    expect(within(bad).getByRole('list', { name: 'Problems of row 4' }).textContent).toBe(
      'productId: is not a numberThe row has no patient',
    );
    const good = screen.getByRole('list', { name: 'Rows ready to import' });
    expect(within(good).getByText('Krill Oil 500 mg is backordered')).toBeTruthy();

    // A Patient ID of another name needs an answer before anything is imported.
    const importButton = screen.getByRole('button', { name: 'Import 2 protocols' });
    expect(importButton).toHaveProperty('disabled', true);
    expect(
      screen.getByText('1 row with a Patient ID of another name needs an answer first.'),
    ).toBeTruthy();
    await user.selectOptions(
      within(good).getByRole('combobox', {
        name: 'Row 3: is Alan Turing the same person as Grace Hopper?',
      }),
      'Another person: new ID PAT-GH-2-2',
    );
    expect(screen.getByText('1 of 1 answered.')).toBeTruthy();
    await user.click(importButton);
    expect(desk.argsOf('protocols.importCommit')).toEqual([
      { csv: CSV, expectedReady: 2, patientIds: { '3': 'new-id' } },
    ]);
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual([
      '2 protocols imported as drafts',
    ]);
    expect(window.location.hash).toBe('#/protocols');
  });

  it('answers every flagged row at once (PatientIdSummary), and starts again on Choose another file', async () => {
    renderImport({ 'protocols.importPreview': () => PREVIEW });
    const user = userEvent.setup();
    await chooseFile(user);
    const summary = await screen.findByRole('region', {
      name: 'Patient IDs that belong to another name (1)',
    });
    expect(within(summary).getByText('0 of 1 answered.')).toBeTruthy();
    await user.click(
      within(summary).getByRole('button', { name: 'All: same person, stored details' }),
    );
    expect(within(summary).getByText('1 of 1 answered.')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: /^Row 3:/ })).toHaveProperty('value', 'use-stored');
    expect(screen.getByRole('button', { name: 'Import 2 protocols' })).toHaveProperty(
      'disabled',
      false,
    );
    await user.click(screen.getByRole('button', { name: 'Choose another file' }));
    expect(screen.getByRole('region', { name: 'Choose a file' })).toBeTruthy();
  });

  it('says every reason a file cannot be imported', async () => {
    renderImport({
      'protocols.importPreview': () =>
        refuse('validation', 'The file has no header.', [
          { path: ['csv'], message: 'The first line names no known column.' },
        ]),
    });
    await chooseFile(userEvent.setup());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'patients.csv cannot be imported.The first line names no known column.',
    );
    expect(screen.getByRole('region', { name: 'Choose a file' })).toBeTruthy();
  });

  it('downloads the template', async () => {
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const desk = renderImport({
      'protocols.csvTemplate': () => ({ csv: 'a\r\n1\r\n2\r\n', rows: 2 }),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Download template' }));
    expect(desk.argsOf('protocols.csvTemplate')).toEqual([{}]);
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual([
      'Saved the CSV template, with 2 example protocols, as order-desk-protocols-template.csv.',
    ]);
  });
});
