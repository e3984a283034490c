import { z } from 'zod';
import { OrderStatusRead } from './api';

/** What the command palette searches for: the typed text, and how many of each kind to return. */
export const PaletteQuery = z.object({
  text: z.string().max(200),
  limit: z.int().min(1).max(20).default(5),
});
export type PaletteQuery = z.input<typeof PaletteQuery>;

const PalettePatient = z.object({ sourceId: z.string(), name: z.string() });
const PaletteProtocol = z.object({
  localId: z.string(),
  customerName: z.string(),
  sourceId: z.string(),
});
const PaletteOrder = z.object({
  id: z.string(),
  customerName: z.string(),
  sourceId: z.string(),
  status: OrderStatusRead,
  createdAt: z.string(),
});

/** The patients, protocols and orders whose names, Patient IDs or order ids match every word. */
export const PaletteResults = z.object({
  patients: z.array(PalettePatient),
  protocols: z.array(PaletteProtocol),
  orders: z.array(PaletteOrder),
  /**
   * The text had no word of three letters: only the newest protocols and orders were looked
   * through (main's SHORT_TEXT_WINDOW), and a longer text may find older ones.
   */
  recentOnly: z.boolean(),
});
export type PaletteResults = z.infer<typeof PaletteResults>;
