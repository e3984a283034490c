import type { Administration } from '@shared/api';

/** The times of day of the grid, in the order a day goes; "sleep" is printed as Bedtime. */
export const DOSE_TIMES = [
  { key: 'morning', label: 'Morning' },
  { key: 'afternoon', label: 'Afternoon' },
  { key: 'evening', label: 'Evening' },
  { key: 'sleep', label: 'Bedtime' },
] as const satisfies readonly { key: keyof Administration; label: string }[];

/** A line of the schedule: a product and how many to take at each time of day. */
export interface ScheduleLine {
  productId: number;
  name: string;
  /**
   * What one dose is, when known: a pack product's pack description ("1 capsule"); one serving
   * of an external product ("1 scoop"), never its pack description, which is the container.
   */
  dose: string | null;
  /** Pills at each time; null for an external product, taken as its label says. */
  administration: Administration | null;
}

/** What a schedule is made of, from a protocol or an order. */
export interface ScheduleContent {
  patientName: string;
  /** The patient's ID at the clinic (the API's sourceId). */
  patientId: string;
  /** Days the supply lasts; null where a server copy leaves it to the subscription. */
  daysSupply: number | null;
  lines: ScheduleLine[];
}

interface ItemLike {
  productId: number;
  packDescription?: string | null | undefined;
  administration?: Administration | null | undefined;
  name?: string | null | undefined;
}

/** What the local catalog says of a product, for an item that does not say it itself. */
export interface CatalogFacts {
  name: string;
  packDescription: string | null;
  /** One serving, as the label's facts panel gives it ("1 scoop"). */
  serving?: string | null;
}

/**
 * A protocol's or an order's line items as schedule lines, in their own order: the name and pack
 * description the item carries (an order's), else the catalog's (`catalogOf`), else
 * "Product <id>" and none; an external product's dose is the catalog's serving.
 */
export function scheduleLines(
  items: readonly ItemLike[],
  catalogOf: (productId: number) => CatalogFacts | null,
): ScheduleLine[] {
  return items.map((item) => {
    const known = catalogOf(item.productId);
    return {
      productId: item.productId,
      name: item.name || known?.name || `Product ${item.productId}`,
      // An external product (no administration) is a container taken by servings.
      dose:
        item.administration == null
          ? (known?.serving ?? null)
          : item.packDescription || known?.packDescription || null,
      administration: item.administration ?? null,
    };
  });
}

/** Pills a day of a line (null for one taken as its label says). */
export const dailyPills = (line: ScheduleLine): number | null =>
  line.administration ? DOSE_TIMES.reduce((sum, t) => sum + line.administration![t.key], 0) : null;

/** Pills to take at each time of day, every line with a dose counted. */
export function pillsAtEachTime(lines: readonly ScheduleLine[]): Administration {
  const total: Administration = { morning: 0, afternoon: 0, evening: 0, sleep: 0 };
  for (const line of lines) {
    if (!line.administration) continue;
    for (const t of DOSE_TIMES) total[t.key] += line.administration[t.key];
  }
  return total;
}

/** A file name for the saved schedule: "dosing-schedule-ada-lovelace-2026-11-26.pdf". */
export function scheduleFileName(patientName: string, startDay: string): string {
  const who = patientName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60);
  return `dosing-schedule-${who ? `${who}-` : ''}${startDay}.pdf`;
}
