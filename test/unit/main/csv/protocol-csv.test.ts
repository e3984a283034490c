import { describe, expect, it } from 'vitest';
import { readCsv, writeCsv } from '@main/csv-text';
import { headerRow } from '@main/csv/csv-columns';
import { exportProtocols, protocolsCsv, protocolsTemplate } from '@main/csv/protocol-export';
import { CsvFileError, planImport } from '@main/csv/protocol-import';
import type { LocalStore } from '@main/stores';
import { memoryStore, product, protocolRequest } from '@test/support/store-fixtures';

/** A store whose catalog mirror holds pack, external, discontinued, draft and backordered products. */
function catalogStore() {
  const store = memoryStore();
  store.products.upsertMany([
    product(1001, { name: 'Magnesium', packDescription: '1 capsule' }),
    product(1002, { name: 'Vitamin D3' }),
    product(1035, { name: 'Protein Powder', external: true, packDescription: '1 tub' }),
    product(1028, { status: 'DISCONTINUED' }),
    product(1032, { status: 'DRAFT' }),
    product(1006, { name: 'Probiotic', status: 'BACKORDERED' }),
  ]);
  return store;
}

const GOOD: Record<string, string> = {
  'Patient ID': 'PAT-1',
  'First name': 'Ada',
  'Last name': 'Lovelace',
  Email: 'ada@example.com',
  Phone: '',
  'Address line 1': '1 Main St',
  'Address line 2': '',
  City: 'Portland',
  State: 'or',
  'ZIP code': '97210',
  'Days supply': '30',
  'Shipping method': 'standard',
  'Order type': 'one time',
  'Product 1 ID': '1001',
  'Product 1 morning': '1',
  'Product 1 evening': '1',
};

/** A file of the full header (3 product groups) with one row per object (missing cells empty). */
function file(...rows: Record<string, string>[]): string {
  const header = headerRow(3);
  return writeCsv(
    header,
    rows.map((r) => header.map((h) => r[h] ?? '')),
  );
}

const reasonsOf = (store: LocalStore, ...rows: Record<string, string>[]) =>
  planImport(store, file(...rows)).preview.bad.map((b) => b.reasons);

function fileError(store: LocalStore, text: string): string[] {
  try {
    planImport(store, text);
  } catch (error) {
    if (error instanceof CsvFileError) return error.problems;
    throw error;
  }
  throw new Error('no CsvFileError');
}

describe('protocol CSV rows', () => {
  it('reads a good row as the request the editor would make', () => {
    const store = catalogStore();
    const plan = planImport(
      store,
      file({
        ...GOOD,
        'Product 2 ID': '1035',
        'Product 2 quantity': '2',
        'Product 2 name': 'Protein Powder',
      }),
    );
    expect(plan.preview).toMatchObject({ total: 1, ready: 1, catalogChecked: true, bad: [] });
    expect(plan.preview.good).toEqual([
      {
        row: 2,
        patient: 'Ada Lovelace',
        sourceId: 'PAT-1',
        summary: '2 products · 30 days · Standard · One time',
        warnings: [],
      },
    ]);
    expect(plan.requests).toEqual([
      {
        customer: {
          sourceId: 'PAT-1',
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          phone: null,
          address: {
            line1: '1 Main St',
            line2: null,
            city: 'Portland',
            state: 'OR',
            zipCode: '97210',
          },
        },
        daysSupply: 30,
        shippingMethod: 'STANDARD',
        orderType: 'ONE_TIME',
        lineItems: [
          {
            productId: 1001,
            quantity: 2,
            packDescription: '1 capsule',
            administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
          },
          { productId: 1035, quantity: 2, administration: null },
        ],
      },
    ]);
  });

  it('reads the shipping and order type as the screens word them, and says them so', () => {
    const plan = planImport(
      catalogStore(),
      file(
        { ...GOOD, 'Shipping method': 'Express', 'Order type': 'one time' },
        {
          ...GOOD,
          'Patient ID': 'PAT-2',
          'Shipping method': 'overnight',
          'Order type': 'Subscription',
        },
      ),
    );
    expect(plan.requests.map((r) => [r.shippingMethod, r.orderType])).toEqual([
      ['EXPRESS', 'ONE_TIME'],
      ['OVERNIGHT', 'SUBSCRIPTION'],
    ]);
    // The preview says no code: the words of the order screens, never EXPRESS or ONE_TIME.
    expect(plan.preview.good.map((g) => g.summary)).toEqual([
      '1 product · 30 days · Express · One time',
      '1 product · 30 days · Overnight · Subscription',
    ]);
  });

  it('gives every reason of a bad customer row, each on its column, in plain words', () => {
    const store = catalogStore();
    const [reasons] = reasonsOf(store, {
      ...GOOD,
      'First name': '',
      Email: 'not-an-email',
      // A full name is taken ("Oregon"); a misspelt one is not, nor any two letters ("TE").
      State: 'Oregone',
      'ZIP code': '123',
      'Days supply': '45',
      'Shipping method': 'pigeon',
      'Order type': '',
    });
    expect(reasons).toEqual(
      expect.arrayContaining([
        { column: 'Days supply', message: '"45" is not one of 30, 60 or 90' },
        {
          column: 'Shipping method',
          message: '"pigeon" is not one of Standard, Express or Overnight',
        },
        { column: 'Order type', message: 'is required' },
        { column: 'First name', message: 'is required' },
        { column: 'Email', message: 'is not an email address' },
        {
          column: 'State',
          message:
            '"Oregone" is not a US state: give its 2-letter code or its full name (such as TX or Texas)',
        },
        { column: 'ZIP code', message: 'must be exactly 5 digits' },
      ]),
    );
    expect(reasons).toHaveLength(7);
    // A ZIP code a spreadsheet kept as a number lost its leading 0: the reason says so.
    expect(reasonsOf(store, { ...GOOD, 'ZIP code': '2139' })).toEqual([
      [
        {
          column: 'ZIP code',
          message:
            '"2139" must be exactly 5 digits; a spreadsheet drops the leading 0 of a number, so format the column as text',
        },
      ],
    ]);
  });

  it('flags a phone that is no number and a ZIP code of another state, row by row', () => {
    const store = catalogStore();
    const plan = planImport(
      store,
      file(
        { ...GOOD, Phone: 'abc' },
        { ...GOOD, 'Patient ID': 'PAT-2', State: 'Texas', 'ZIP code': '10025' },
        { ...GOOD, 'Patient ID': 'PAT-3', Phone: '+1 (503) 555-0100', 'ZIP code': '00012' },
        { ...GOOD, 'Patient ID': 'PAT-4', Phone: '503.555.0100', State: 'NY', 'ZIP code': '06390' },
      ),
    );
    expect(plan.preview.bad.map((b) => [b.row, b.reasons])).toEqual([
      [
        2,
        [
          {
            column: 'Phone',
            message:
              '"abc" is not a phone number of 7 to 15 digits; spaces, dashes, dots, brackets and a leading + may be used, such as (503) 555-0100 or +1 503 555 0100',
          },
        ],
      ],
      [
        3,
        [
          {
            column: 'ZIP code',
            message:
              '10025 is a New York ZIP code, not one in Texas: check the ZIP code or the state',
          },
        ],
      ],
      [4, [{ column: 'ZIP code', message: 'no US ZIP code starts with 000: check the ZIP code' }]],
    ]);
    // Fishers Island, NY, has a ZIP code of Connecticut's prefix: its row is ready.
    expect(plan.preview.ready).toBe(1);
  });

  it('judges products against the catalog: unknown, discontinued, draft, twice, doses vs kind', () => {
    const store = catalogStore();
    const rows = (
      [
        { 'Product 1 ID': '9999', 'Product 1 morning': '1' },
        { 'Product 1 ID': '1028', 'Product 1 morning': '1' },
        { 'Product 1 ID': '1032', 'Product 1 morning': '1' },
        {
          'Product 1 ID': '1001',
          'Product 1 morning': '1',
          'Product 2 ID': '1001',
          'Product 2 evening': '1',
        },
        { 'Product 1 ID': '1035', 'Product 1 morning': '1' },
        { 'Product 1 ID': '1001', 'Product 1 quantity': '3' },
        { 'Product 1 ID': '1001', 'Product 1 morning': '1', 'Product 1 quantity': '3' },
        { 'Product 1 ID': '1001', 'Product 1 morning': '0' },
        { 'Product 1 ID': 'abc', 'Product 1 morning': 'two' },
        { 'Product 1 ID': '', 'Product 2 morning': '1' },
        { 'Product 1 ID': '' },
      ] as Record<string, string>[]
    ).map((products, i) => ({
      ...GOOD,
      'Product 1 morning': '',
      'Product 1 evening': '',
      'Patient ID': `PAT-${i}`,
      ...products,
    }));
    expect(reasonsOf(store, ...rows)).toEqual([
      [{ column: 'Product 1 ID', message: 'product 9999 is not in the catalog' }],
      [{ column: 'Product 1 ID', message: 'product 1028 is discontinued and cannot be ordered' }],
      [
        {
          column: 'Product 1 ID',
          message: 'product 1032 is not released yet (draft) and cannot be ordered',
        },
      ],
      [{ column: 'Product 2 ID', message: 'product 1001 is listed twice in this row' }],
      [
        {
          column: 'Product 1 morning',
          message:
            'must be empty: product 1035 is not taken in the daily packs, so it has a quantity instead of doses',
        },
        {
          column: 'Product 1 quantity',
          message: 'is required: product 1035 is not taken in the daily packs (units per 30 days)',
        },
      ],
      [
        {
          column: 'Product 1 doses',
          message:
            'product 1001 is taken in the daily packs: give its pills in the morning, afternoon, evening and bedtime columns',
        },
      ],
      [
        {
          column: 'Product 1 quantity',
          message:
            'is 3 but the doses add up to 1: leave it empty for a product in the daily packs, or make it 1',
        },
      ],
      [{ column: 'Product 1 doses', message: 'add up to 0: give at least one pill a day' }],
      [
        {
          column: 'Product 1 ID',
          message: '"abc" is not a product ID (a number such as 1001, shown in the Catalog)',
        },
        { column: 'Product 1 morning', message: '"two" is not a whole number from 0 to 1000' },
      ],
      [
        {
          column: 'Product 2 ID',
          message: 'is required when the product has a name, doses or a quantity',
        },
      ],
      [{ column: 'Product 1 ID', message: 'is required: a protocol has at least one product' }],
    ]);
  });

  it('asks for the ID of a product given only by its name', () => {
    expect(reasonsOf(catalogStore(), { ...GOOD, 'Product 2 name': 'Magnesium' })).toEqual([
      [
        {
          column: 'Product 2 ID',
          message: 'is required when the product has a name, doses or a quantity',
        },
        {
          column: 'Product 2 doses',
          message:
            'give the doses (a product in the daily packs) or a quantity (a product outside them)',
        },
      ],
    ]);
  });

  it('warns of a backordered product and of a name that is not the catalog one', () => {
    const store = catalogStore();
    const { preview } = planImport(
      store,
      file({ ...GOOD, 'Product 1 ID': '1006', 'Product 1 name': 'Zinc' }),
    );
    expect(preview.good[0]!.warnings).toEqual([
      'Product 1006 (Probiotic) is backordered.',
      'Product 1 name "Zinc" is not the catalog\'s name of product 1006 ("Probiotic"); the ID decides.',
    ]);
  });

  it('without a synced catalog, tells pack from other products by the row and checks no IDs', () => {
    const store = memoryStore();
    const plan = planImport(
      store,
      file(
        { ...GOOD, 'Product 2 ID': '777', 'Product 2 quantity': '2' },
        { ...GOOD, 'Patient ID': 'PAT-2', 'Product 1 morning': '', 'Product 1 evening': '' },
      ),
    );
    expect(plan.preview.catalogChecked).toBe(false);
    expect(plan.requests[0]!.lineItems).toEqual([
      {
        productId: 1001,
        quantity: 2,
        administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
      },
      { productId: 777, quantity: 2, administration: null },
    ]);
    expect(plan.preview.bad[0]!.reasons).toEqual([
      {
        column: 'Product 1 doses',
        message:
          'give the doses (a product in the daily packs) or a quantity (a product outside them)',
      },
    ]);
  });

  it('leaves out a row repeating an earlier patient and products, and warns of one already here', () => {
    const store = catalogStore();
    store.protocols.createDraft(
      protocolRequest(
        { sourceId: 'PAT-9' },
        {
          lineItems: [
            {
              productId: 1001,
              quantity: 2,
              administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
            },
          ],
        },
      ),
    );
    const { preview } = planImport(
      store,
      file(GOOD, { ...GOOD, City: 'Salem' }, { ...GOOD, 'Patient ID': 'PAT-9' }),
    );
    expect(preview.ready).toBe(2);
    expect(preview.bad).toEqual([
      {
        row: 3,
        label: 'Ada Lovelace (PAT-1)',
        reasons: [
          {
            column: null,
            message:
              'repeats row 2: the same patient with the same products and doses. Only row 2 is imported; delete one of the two rows, or change this one.',
          },
        ],
      },
    ]);
    expect(preview.good.map((g) => [g.row, g.warnings])).toEqual([
      [2, []],
      [
        4,
        [
          'Order Desk already has a protocol for patient PAT-9 with these products; importing makes a second one.',
        ],
      ],
    ]);
  });

  it('refuses a value spilling past the last column (an unquoted comma)', () => {
    const store = catalogStore();
    const text = [
      'Patient ID,First name,Last name,Address line 1,City,State,ZIP code,Days supply,Shipping method,Order type,Product 1 ID,Product 1 morning',
      'P1,Ada,Lee,1 Main St, Apt 2,Portland,OR,97210,30,STANDARD,ONE_TIME,1001,1',
    ].join('\r\n');
    const { preview } = planImport(store, text);
    expect(preview.bad[0]!.reasons).toContainEqual({
      column: null,
      message:
        'has 1 value(s) after the last column of the header; a value with a comma in it needs double quotes around it',
    });
  });
});

describe('protocol CSV files', () => {
  it('reads BOM or none, CRLF or LF, quoted commas, quotes and newlines, empty trailing rows', () => {
    const store = catalogStore();
    const header =
      'patient_id,FIRST NAME,last name,address line 1,city,state,zip,days supply,shipping method,order type,product 1 id,product 1 morning';
    const rows = [
      'P1,"Lovelace, Ada","O""Brien",1 Main St,Portland,OR,97210,30,STANDARD,ONE_TIME,1001,1',
      'P2,Bo,Ek,"2 Oak Ave',
      'Back door",Salem,OR,97301,30,STANDARD,ONE_TIME,1001,1',
      'P3,Cy,Fo,3 Elm St,Eugene,OR,97401,60,EXPRESS,SUBSCRIPTION,1001,2',
      ',,,,,,,,,,,',
      '',
    ];
    for (const [bom, eol] of [
      ['\uFEFF', '\r\n'],
      ['', '\n'],
    ] as const) {
      const { preview, requests } = planImport(store, bom + [header, ...rows].join(eol));
      expect(preview.total).toBe(3);
      expect(requests.map((r) => [r.customer.firstName, r.customer.lastName])).toEqual([
        ['Lovelace, Ada', "O'Brien".replace("'", '"')],
        ['Cy', 'Fo'],
      ]);
      // A line break inside a quoted value stays in its row (3), as a spreadsheet shows it.
      expect(preview.bad).toEqual([
        {
          row: 3,
          label: 'Bo Ek (P2)',
          reasons: [
            {
              column: 'Address line 1',
              message: 'must be one line of text, without tabs or line breaks',
            },
          ],
        },
      ]);
      expect(preview.good.map((g) => g.row)).toEqual([2, 4]);
    }
  });

  it('refuses the whole file for missing, unknown, repeated or unnamed columns, all at once', () => {
    const store = catalogStore();
    expect(
      fileError(
        store,
        'Patient ID,First name,Favourite colour,Patient id,Product 2 morning,,Product 51 ID\r\nx,y,z,w,1,2,3\r\n',
      ),
    ).toEqual([
      '"Favourite colour" is not a column Order Desk knows.',
      '"Patient id" appears twice (also as "Patient ID").',
      'Column 6 has values but no name in the header row.',
      '"Product 51 ID": a protocol has at most 50 products (Product 1 to Product 50).',
      'The required column "Last name" is missing.',
      'The required column "Address line 1" is missing.',
      'The required column "City" is missing.',
      'The required column "State" is missing.',
      'The required column "ZIP code" is missing.',
      'The required column "Days supply" is missing.',
      'The required column "Shipping method" is missing.',
      'The required column "Order type" is missing.',
      'The required column "Product 1 ID" is missing.',
      'Product 2 has columns but no "Product 2 ID" column.',
    ]);
  });

  it('says what is wrong with a file that is empty, only a header, not CSV, or not UTF-8', () => {
    const store = catalogStore();
    const header = headerRow(1).join(',');
    expect(fileError(store, '')).toEqual(['The file is empty.']);
    expect(fileError(store, `\uFEFF${header}\r\n\r\n`)).toEqual([
      'The file has a header row but no protocols below it.',
    ]);
    expect(fileError(store, `${header}\r\n"PAT-1,Ada\r\n`)[0]).toMatch(
      /^The file is not valid CSV/,
    );
    expect(fileError(store, `${header}\r\nPAT-1,Ren\uFFFDe\r\n`)).toEqual([
      'The file is not UTF-8 text: some characters could not be read (first on line 2). Save it from your spreadsheet as "CSV UTF-8 (comma delimited)" and choose it again.',
    ]);
    expect(fileError(store, 'P\u0000a\u0000t\u0000')[0]).toMatch(/not a CSV text file/);
    expect(fileError(store, 'Patient ID;First name\r\nP1;Ada\r\n')[0]).toMatch(
      /^The columns are separated by semicolons; Order Desk reads commas\./,
    );
  });
});

describe('protocol CSV export and template', () => {
  it('exports what the list shows, in its order, in the import columns', () => {
    const store = catalogStore();
    store.protocols.createDraft(
      protocolRequest({ sourceId: 'B-1', lastName: 'Zed', phone: '+1 503 555 0100' }),
    );
    store.clock.advance(1000);
    store.protocols.createDraft(protocolRequest({ sourceId: 'A-1', lastName: 'Able' }));
    store.protocols.createDraft(protocolRequest({ sourceId: 'C-1', lastName: 'Other' }));
    const { csv, rows } = exportProtocols(store, {
      search: '-1',
      sort: 'name',
      syncStates: ['pending'],
    });
    expect(rows).toBe(3);
    const table = readCsv(csv);
    expect(csv.startsWith('\uFEFFPatient ID,First name,Last name,Email,Phone,')).toBe(true);
    expect(table.header).toEqual(headerRow(2));
    expect(table.rows.map((r) => r.cells[0])).toEqual(['A-1', 'C-1', 'B-1']);
    // The phone starts with +: defused for spreadsheets in the file, read back as written.
    expect(csv).toContain(",'+1 503 555 0100,");
    expect(table.rows[2]!.cells.slice(4, 5)).toEqual(['+1 503 555 0100']);
    // A pack line is its doses, another line its quantity; the name is the catalog's.
    expect(table.rows[0]!.cells.slice(13)).toEqual([
      '1001',
      'Magnesium',
      '1',
      '0',
      '1',
      '0',
      '',
      '1035',
      'Protein Powder',
      '',
      '',
      '',
      '',
      '1',
    ]);
    expect(readCsv(exportProtocols(store, { search: 'nobody' }).csv).header).toEqual(headerRow(1));
  });

  it('writes a template of real catalog products that imports as two good rows', () => {
    const store = catalogStore();
    const template = protocolsTemplate(store);
    expect(template.rows).toBe(2);
    expect(readCsv(template.csv).header).toEqual(headerRow(3));
    const { preview } = planImport(store, template.csv);
    expect(preview).toMatchObject({ total: 2, ready: 2, bad: [] });
    expect(preview.good.map((g) => g.sourceId)).toEqual(['EXAMPLE-001', 'EXAMPLE-002']);
    // Without a catalog: the header alone.
    expect(protocolsTemplate(memoryStore())).toEqual({
      csv: `\uFEFF${headerRow(3).join(',')}\r\n`,
      rows: 0,
    });
  });

  it('writes a protocol with no days supply yet (a server copy) as an empty cell', () => {
    const draft = { ...protocolRequest(), daysSupply: null, shippingMethod: null, orderType: null };
    const row = readCsv(protocolsCsv([draft], () => undefined)).rows[0]!.cells;
    expect(row.slice(10, 13)).toEqual(['', '', '']);
  });

  it('writes more protocols than a function call takes arguments (no spread of the list)', () => {
    const drafts = Array.from({ length: 200_000 }, () => protocolRequest());
    const csv = protocolsCsv(drafts, () => undefined);
    expect(csv.split('\r\n')).toHaveLength(200_000 + 2); // header, rows, the final line end
  });
});
