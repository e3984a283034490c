import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, readCsv, writeCsv } from '@main/csv-text';

describe('CSV text', () => {
  it('writes a byte-order mark, CRLF lines, and quotes commas, quotes and newlines', () => {
    const text = writeCsv(
      ['name', 'note'],
      [
        ['Doe, Jane', 'says "hi"\nthen leaves'],
        [null, 3],
      ],
    );
    expect(text).toBe('\uFEFFname,note\r\n"Doe, Jane","says ""hi""\nthen leaves"\r\n,3\r\n');
  });

  it('writes a long iterable a chunk at a time, the same as row by row', () => {
    const rows = Array.from({ length: 2345 }, (_, i) => [`r${i}`, i % 7 === 0 ? 'a,\nb' : i]);
    function* lazily() {
      yield* rows;
    }
    const text = writeCsv(['id', 'v'], lazily());
    expect(text.startsWith('\uFEFFid,v\r\n')).toBe(true);
    expect(text.indexOf('\uFEFF', 1)).toBe(-1); // one byte-order mark, not one per chunk
    const table = readCsv(text);
    expect(table.rows).toHaveLength(2345);
    expect(table.rows.map((r) => r.cells)).toEqual(rows.map((r) => r.map(String)));
  });

  it('quotes a bare line break, which a spreadsheet would otherwise take as a new row', () => {
    const text = writeCsv(
      ['a', 'b'],
      [
        ['two\nlines', 'old\rmac'],
        ['x', 'y'],
      ],
    );
    expect(text).toBe('\uFEFFa,b\r\n"two\nlines","old\rmac"\r\nx,y\r\n');
    expect(readCsv(text).rows.map((r) => r.cells)).toEqual([
      ['two\nlines', 'old\rmac'],
      ['x', 'y'],
    ]);
  });

  it('defuses cells a spreadsheet would run as formulas, and reads them back as written', () => {
    const text = writeCsv(['a', 'b', 'c', 'd'], [['=1+1', '+1 555 0100', '-x', '@SUM(A1)']]);
    expect(text).toContain("'=1+1,'+1 555 0100,'-x,'@SUM(A1)");
    expect(readCsv(text).rows[0]!.cells).toEqual(['=1+1', '+1 555 0100', '-x', '@SUM(A1)']);
    // An apostrophe a user typed before ordinary text is theirs, and stays.
    expect(readCsv("a\r\n'quoted\r\n").rows[0]!.cells).toEqual(["'quoted"]);
    // ...and one typed before a formula character survives the round trip too.
    expect(readCsv(writeCsv(['a'], [["'=x"], ["''+1"]])).rows.map((r) => r.cells)).toEqual([
      ["'=x"],
      ["''+1"],
    ]);
  });

  it('numbers rows as a spreadsheet does: header row 1, empty rows counted, not returned', () => {
    const table = readCsv('\uFEFF first , last\n"Ann\r\nMarie",Lee\n\n,\nBo,Ek\n');
    expect(table.header).toEqual(['first', 'last']);
    expect(table.rows).toEqual([
      { row: 2, cells: ['Ann\r\nMarie', 'Lee'] },
      { row: 5, cells: ['Bo', 'Ek'] },
    ]);
  });

  it('keeps rows with more or fewer cells than the header for the caller to judge', () => {
    expect(readCsv('a,b\n1\n1,2,3\n').rows.map((r) => r.cells)).toEqual([['1'], ['1', '2', '3']]);
  });

  it('reads an empty file as no header and no rows', () => {
    expect(readCsv('')).toEqual({ header: [], rows: [] });
    expect(readCsv('\uFEFF\r\n\r\n')).toEqual({ header: [], rows: [] });
  });

  it('refuses text that is not CSV with a clear error', () => {
    expect(() => readCsv('a,b\n"never closed,1\n')).toThrow(CsvSyntaxError);
    expect(() => readCsv('a,b\n"never closed,1\n')).toThrow(/not valid CSV/);
  });

  it('reads back exactly what it wrote, whatever the text', () => {
    const cell = fc.string({ unit: 'grapheme', maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { maxLength: 8 }),
        (rows) => {
          // Rows of only blanks are skipped on reading; keep the property about the others.
          const kept = rows.filter((r) => r.some((c) => c.trim() !== ''));
          const read = readCsv(writeCsv(['x', 'y'], kept));
          expect(read.header).toEqual(['x', 'y']);
          expect(read.rows.map((r) => r.cells)).toEqual(kept);
        },
      ),
    );
  });
});
