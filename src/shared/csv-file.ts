import { z } from 'zod';

/** A CSV file made by main (docs/csv.md): its text, and how many data rows it holds. */
export const CsvFile = z.object({ csv: z.string(), rows: z.int().min(0) });
export type CsvFile = z.infer<typeof CsvFile>;
