import { describe, expect, it } from 'vitest';
import {
  dailyPills,
  pillsAtEachTime,
  scheduleFileName,
  scheduleLines,
  type CatalogFacts,
} from '@renderer/screens/schedule/schedule-rows';
import { PdfFileName } from '@shared/schedule-pdf';

const catalog: Record<number, CatalogFacts> = {
  1001: { name: 'Magnesium Glycinate 120 mg', packDescription: '1 capsule', serving: '1 capsule' },
  1002: { name: 'Vitamin D3 + K2', packDescription: '1 softgel' },
  // A powder: its pack description is the container, its dose a scoop.
  1035: { name: 'Protein', packDescription: '1 tub (30 servings)', serving: '1 scoop' },
};
const catalogOf = (id: number) => catalog[id] ?? null;

describe('the dosing schedule rows', () => {
  const lines = scheduleLines(
    [
      {
        productId: 1001,
        packDescription: '2 capsules',
        administration: { morning: 1, afternoon: 0, evening: 1, sleep: 2 },
      },
      // An order's item carries its own name; 1.0.1 items may not (null): the catalog's then.
      {
        productId: 1002,
        name: 'Vitamin D3 + K2',
        packDescription: null,
        administration: { morning: 2, afternoon: 1, evening: 0, sleep: 0 },
      },
      { productId: 1035, name: null, administration: null },
      { productId: 4242, administration: { morning: 0, afternoon: 0, evening: 0, sleep: 1 } },
    ],
    catalogOf,
  );

  it('describes each product from its item, else the catalog, else by its id, in their order', () => {
    expect(lines.map((l) => l.name)).toEqual([
      'Magnesium Glycinate 120 mg',
      'Vitamin D3 + K2',
      'Protein',
      'Product 4242',
    ]);
    // An external product's dose is one serving, never its container ("1 tub").
    expect(lines.map((l) => l.dose)).toEqual(['2 capsules', '1 softgel', '1 scoop', null]);
  });

  it('counts pills a day per line and at each time of day, external products left out', () => {
    expect(lines.map(dailyPills)).toEqual([4, 3, null, 1]);
    expect(pillsAtEachTime(lines)).toEqual({ morning: 3, afternoon: 1, evening: 1, sleep: 3 });
    expect(pillsAtEachTime([])).toEqual({ morning: 0, afternoon: 0, evening: 0, sleep: 0 });
  });

  it('proposes a file name the save contract accepts, whatever the name', () => {
    const cases: [string, string][] = [
      ['Ada Lovelace', 'dosing-schedule-ada-lovelace-2026-11-26.pdf'],
      ['José  Müller-Ñúñez', 'dosing-schedule-jose-muller-nunez-2026-11-26.pdf'],
      ['../../etc', 'dosing-schedule-etc-2026-11-26.pdf'],
      ['李雷', 'dosing-schedule-2026-11-26.pdf'],
      ['', 'dosing-schedule-2026-11-26.pdf'],
    ];
    for (const [name, file] of cases) {
      expect(scheduleFileName(name, '2026-11-26')).toBe(file);
      expect(PdfFileName.safeParse(file).success).toBe(true);
    }
    expect(PdfFileName.safeParse(scheduleFileName('x'.repeat(500), '2026-11-26')).success).toBe(
      true,
    );
  });
});
