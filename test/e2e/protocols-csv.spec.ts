import { readCsv, writeCsv } from '@main/csv-text';
import { headerRow } from '@main/csv/csv-columns';
import { expect, test } from '@test/support/e2e/fixtures';
import { expectNoAxeBlockersInBothThemes } from '@test/support/e2e/axe';
import { connectToProtocols, protocolsUi as list } from '@test/support/e2e/protocols';
import { downloaded, textOf } from '@test/support/e2e/downloads';
import { patientBody } from '@test/support/e2e/local-orders';
import { saveScreen } from '@test/support/e2e/screens';

test('downloads the template, imports good and bad rows after a preview, and exports the list', async ({
  app,
  host,
}, testInfo) => {
  await connectToProtocols(app);
  await app.getByRole('link', { name: 'Import CSV…' }).click();
  await expect(
    app.getByRole('heading', { level: 1, name: 'Import protocols from CSV' }),
  ).toBeVisible();

  // The template: every column, two example rows of catalog products.
  const template = await downloaded(app, () =>
    app.getByRole('button', { name: 'Download template' }).click(),
  );
  expect(template.suggestedFilename()).toBe('order-desk-protocols-template.csv');
  // Said like every other download: what was saved, and as what.
  await expect(
    app.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({
      hasText:
        'Saved the CSV template, with 2 example protocols, as order-desk-protocols-template.csv.',
    }),
  ).toContainText('In your Downloads folder, or where you chose to save it.');
  const templateText = await textOf(template);
  expect(templateText.startsWith('\uFEFFPatient ID,First name,Last name,')).toBe(true);
  const { header, rows } = readCsv(templateText);
  expect(rows.map((r) => r.cells[0])).toEqual(['EXAMPLE-001', 'EXAMPLE-002']);
  expect(header).toContain('Product 3 bedtime');

  // The clinic's file: the two example rows as two patients, and three rows with problems.
  const at = (name: string) => header.indexOf(name);
  const patient = (cells: string[], id: string, last: string) =>
    cells.map((c, i) => (i === at('Patient ID') ? id : i === at('Last name') ? last : c));
  const first = patient(rows[0]!.cells, 'CSV-E2E-001', 'Importwell');
  const second = patient(rows[1]!.cells, 'CSV-E2E-002', 'Spreadsheet, Jr.');
  const badZip = patient(first, 'CSV-E2E-003', 'Badzip').map((c, i) =>
    i === at('ZIP code')
      ? '123'
      : i === at('Days supply')
        ? '45'
        : i === at('Shipping method')
          ? 'Fast'
          : c,
  );
  const discontinued = patient(first, 'CSV-E2E-004', 'Oldstock').map((c, i) =>
    i === at('Product 1 ID') ? '1028' : c,
  );
  const csv = writeCsv(header, [first, badZip, second, discontinued, first]);
  await app.getByLabel('Choose a CSV file…').setInputFiles({
    name: 'patients.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });

  await expect(app.getByRole('heading', { name: 'patients.csv' })).toBeFocused();
  await expect(app.getByTestId('import-ready')).toHaveText('2');
  await expect(app.getByTestId('import-bad')).toHaveText('3');
  const bad = app.getByRole('list', { name: 'Rows with problems' }).locator(':scope > li');
  await expect(bad).toHaveCount(3);
  await expect(bad.nth(0)).toContainText('Row 3');
  await expect(bad.nth(0)).toContainText('Days supply: "45" is not one of 30, 60 or 90');
  await expect(bad.nth(0)).toContainText('ZIP code: must be exactly 5 digits');
  await expect(bad.nth(0)).toContainText(
    'Shipping method: "Fast" is not one of Standard, Express or Overnight',
  );
  await expect(bad.nth(1)).toContainText('Row 5');
  await expect(bad.nth(1)).toContainText('product 1028 is discontinued and cannot be ordered');
  await expect(bad.nth(2)).toContainText('Row 6');
  await expect(bad.nth(2)).toContainText('repeats row 2');
  const good = app.getByRole('list', { name: 'Rows ready to import' }).getByRole('listitem');
  await expect(good).toHaveCount(2);
  await expect(good.nth(1)).toContainText('Spreadsheet, Jr.');
  // Said as the order screens say it, never in the API's codes (issue 26).
  await expect(good.nth(0)).toContainText(
    /\d+ products? · \d+ days · (Standard|Express|Overnight) · (One time|Subscription)/,
  );
  await expect(app.getByRole('main')).not.toContainText(
    /\b(STANDARD|EXPRESS|OVERNIGHT|ONE_TIME|SUBSCRIPTION|ACTIVE|DRAFT|DISCONTINUED|BACKORDERED)\b/,
  );
  // Nothing is written before the user confirms.
  expect(host.core.store.protocols.count()).toBe(0);

  await expectNoAxeBlockersInBothThemes(app, testInfo, 'protocols-import-preview', {
    screenshot: true,
  });

  await app.getByRole('button', { name: 'Import 2 protocols' }).click();
  await expect(app.getByText('2 protocols imported as drafts')).toBeVisible();
  await expect(app.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();
  await expect(list.row(app, 'Importwell')).toBeVisible();
  await expect(list.row(app, 'Spreadsheet, Jr.')).toBeVisible();
  expect(host.core.store.protocols.count()).toBe(2);
  await saveScreen(app, testInfo, 'protocols-after-import');

  // They sync like any draft: each reaches the sandbox.
  await expect
    .poll(
      () =>
        host.core.store.protocols
          .list({ search: 'CSV-E2E' })
          .items.map((p) => [p.sourceId, p.syncState, p.serverId !== null]),
      { timeout: 20_000 },
    )
    .toEqual(
      expect.arrayContaining([
        ['CSV-E2E-001', 'synced', true],
        ['CSV-E2E-002', 'synced', true],
      ]),
    );
  const onServer = await host.core.session!.client.listProtocols({ limit: 100 });
  expect(onServer.protocols.map((p) => p.customer.sourceId).sort()).toEqual([
    'CSV-E2E-001',
    'CSV-E2E-002',
  ]);

  // Export what the list shows: the search narrows it to one.
  await list.search(app).fill('Importwell');
  await expect(list.rows(app)).toHaveCount(1);
  const exported = await downloaded(app, () =>
    app.getByRole('button', { name: 'Export CSV' }).click(),
  );
  expect(exported.suggestedFilename()).toMatch(/^order-desk-protocols-\d{4}-\d{2}-\d{2}\.csv$/);
  const table = readCsv(await textOf(exported));
  expect(table.rows.map((r) => r.cells.slice(0, 3))).toEqual([
    ['CSV-E2E-001', first[1], 'Importwell'],
  ]);
  expect(table.rows[0]!.cells.slice(at('Product 1 ID'), at('Product 1 quantity') + 1)).toEqual(
    first.slice(at('Product 1 ID'), at('Product 1 quantity') + 1),
  );

  // The template is one click away on the list too.
  const again = await downloaded(app, () =>
    app.getByRole('button', { name: 'CSV template' }).click(),
  );
  expect(again.suggestedFilename()).toBe('order-desk-protocols-template.csv');
  expect(await textOf(again)).toBe(templateText);
});

test('a file that is not a protocols CSV is refused whole, with every reason', async ({ app }) => {
  await connectToProtocols(app);
  await app.getByRole('link', { name: 'Import CSV…' }).click();
  await app.getByLabel('Choose a CSV file…').setInputFiles({
    name: 'contacts.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Patient ID,Nickname\r\nP1,Ada\r\n', 'utf8'),
  });
  const alert = app.getByRole('alert');
  await expect(alert).toContainText('contacts.csv cannot be imported.');
  await expect(alert).toContainText('"Nickname" is not a column Order Desk knows.');
  await expect(alert).toContainText('The required column "First name" is missing.');
  // Another file can be chosen at once; dropping one on the chooser works as choosing it.
  await expect(app.getByLabel('Choose a CSV file…')).toBeEnabled();
  const fixed = [
    'Patient ID,First name,Last name,Address line 1,City,State,ZIP code,Days supply,Shipping method,Order type,Product 1 ID,Product 1 morning',
    'P1,Ada,Dropped,1 Main St,Portland,OR,97210,30,STANDARD,ONE_TIME,1001,1',
  ].join('\r\n');
  const data = await app.evaluateHandle((text) => {
    // The page's DataTransfer (the tests' tsconfig has no DOM library).
    const page = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: File): void } };
    };
    const transfer = new page.DataTransfer();
    transfer.items.add(new File([text], 'fixed.csv', { type: 'text/csv' }));
    return transfer;
  }, fixed);
  await app.locator('.import-drop').dispatchEvent('drop', { dataTransfer: data });
  await expect(app.getByRole('heading', { name: 'fixed.csv' })).toBeVisible();
  await expect(app.getByRole('alert')).toHaveCount(0);
  await expect(app.getByRole('button', { name: 'Import 1 protocol' })).toBeEnabled();
});

test('10,000 rows go through the screen: the preview lists them virtualised, and all are imported', async ({
  app,
  host,
}) => {
  await connectToProtocols(app);
  const header = headerRow(2);
  const rows = Array.from({ length: 10_000 }, (_, i) => {
    const cells: Record<string, string> = {
      'Patient ID': `BULK-${String(i).padStart(5, '0')}`,
      'First name': 'Bulk',
      'Last name': `Patient, ${i}`,
      'Address line 1': `${i} Long Road`,
      City: 'Portland',
      State: 'OR',
      'ZIP code': i === 4_321 ? 'none' : '97210',
      'Days supply': '30',
      'Shipping method': 'STANDARD',
      'Order type': 'ONE_TIME',
      'Product 1 ID': '1001',
      'Product 1 morning': '1',
      'Product 2 ID': '1035',
      'Product 2 quantity': '1',
    };
    return header.map((h) => cells[h] ?? '');
  });
  await app.getByRole('link', { name: 'Import CSV…' }).click();
  await app.getByLabel('Choose a CSV file…').setInputFiles({
    name: 'clinic.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(writeCsv(header, rows), 'utf8'),
  });
  await expect(app.getByTestId('import-ready')).toHaveText('9,999', { timeout: 30_000 });
  await expect(app.getByTestId('import-bad')).toHaveText('1');
  await expect(
    app.getByRole('list', { name: 'Rows with problems' }).locator(':scope > li'),
  ).toContainText('Row 4323');
  // Only the rows in view are in the page.
  const good = app.getByRole('list', { name: 'Rows ready to import' }).locator(':scope > li');
  await expect(good.first()).toContainText('Row 2');
  expect(await good.count()).toBeLessThan(100);
  await expect(good.first()).toHaveAttribute('aria-setsize', '9999');

  await app.getByRole('button', { name: 'Import 9,999 protocols' }).click();
  await expect(app.getByText('9,999 protocols imported as drafts')).toBeVisible({
    timeout: 30_000,
  });
  await expect(app.getByTestId('protocol-count')).toHaveText('9,999 protocols');
  expect(host.core.store.protocols.count()).toBe(9_999);
});

test('a row whose Patient ID belongs to another name is flagged, and imported only as the user answers', async ({
  app,
  host,
}, testInfo) => {
  test.setTimeout(120_000);
  await connectToProtocols(app);
  host.core.session!.protocols.create(
    patientBody({ sourceId: 'PAT-1001', firstName: 'Maria', lastName: 'Gonzalez' }),
  );
  await app.getByRole('link', { name: 'Import CSV…' }).click();
  const head =
    'Patient ID,First name,Last name,Address line 1,City,State,ZIP code,Days supply,Shipping method,Order type,Product 1 ID,Product 1 quantity';
  const line = (id: string, first: string, last: string) =>
    `${id},${first},${last},9 Elm St,Salem,OR,97301,30,STANDARD,ONE_TIME,1035,1`;
  const csv = [head, line('PAT-1001', 'Dup', 'Test'), line('CSV-E2E-PID-2', 'Ann', 'Lee')].join(
    '\r\n',
  );
  await app.getByLabel('Choose a CSV file…').setInputFiles({
    name: 'clinic.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await expect(app.getByRole('heading', { name: 'clinic.csv' })).toBeFocused();
  await expect(app.getByTestId('import-ready')).toHaveText('2');
  const good = app.getByRole('list', { name: 'Rows ready to import' }).getByRole('listitem');
  await expect(good.nth(0)).toContainText(
    'Patient ID PAT-1001 already belongs to Maria Gonzalez (in Order Desk), not Dup Test.',
  );
  const importButton = app.getByRole('button', { name: 'Import 2 protocols' });
  await expect(importButton).toBeDisabled();
  await expect(
    app.getByText('1 row with a Patient ID of another name needs an answer first.'),
  ).toBeVisible();
  await expectNoAxeBlockersInBothThemes(app, testInfo, 'protocols-import-patient-ids', {
    screenshot: true,
  });
  await saveScreen(app, testInfo, 'protocols-import-patient-ids');
  expect(host.core.store.protocols.count()).toBe(1);

  // For all (one row here), then one row's own answer: another person, the suggested ID.
  await app.getByRole('button', { name: 'All: same person, stored details' }).click();
  const answer = app.getByRole('combobox', {
    name: 'Row 2: is Dup Test the same person as Maria Gonzalez?',
  });
  await expect(answer).toHaveValue('use-stored');
  await answer.selectOption({ label: 'Another person: new ID PAT-1002' });
  await expect(importButton).toBeEnabled();
  await importButton.click();
  await expect(app.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();
  const drafts = host.core.store.protocols
    .matchingDrafts({ sort: 'name' })
    .map((d) => `${d.customer.firstName} ${d.customer.lastName} ${d.customer.sourceId}`);
  expect(drafts.sort()).toEqual([
    'Ann Lee CSV-E2E-PID-2',
    'Dup Test PAT-1002',
    'Maria Gonzalez PAT-1001',
  ]);
});
