import type { PaletteResults } from '@shared/palette-views';
import { normalizeForSearch, searchTerms } from '../protocols/protocol-search';
import type { LocalStore } from '../stores/local-store';

/** How many protocols and orders are looked through for the distinct patients they name. */
const PATIENT_SCAN = 50;

/**
 * A text of one or two letters a word (no trigram for the index) is looked for among this many
 * newest protocols (last changed) and orders (last created) only: at 100,000 of each, a text few
 * of them hold would otherwise walk every one, 10–17 ms a keystroke (bench/README.md, "Command
 * palette"). The third letter searches them all.
 */
export const SHORT_TEXT_WINDOW = 2000;

/** No word of the text is three characters long: the trigram index cannot look for it. */
export const isShortText = (text: string): boolean =>
  searchTerms(text).every((term) => [...term].length < 3);

/**
 * The command palette's entities for `text`: protocols by the list's search (names, Patient ID,
 * email), orders by the queue's (names, Patient ID, order id), newest first, and the patients
 * those name, each once: an order found by its id alone names no patient here, so an order id
 * typed finds the order first. Deleted protocols are left out, as in the list. A text of one or
 * two letters a word looks through the newest SHORT_TEXT_WINDOW of each only (`recentOnly`).
 */
export function paletteSearch(store: LocalStore, text: string, limit: number): PaletteResults {
  if (text.trim() === '') return { patients: [], protocols: [], orders: [], recentOnly: false };
  const recentOnly = isShortText(text);
  const newest = recentOnly ? SHORT_TEXT_WINDOW : undefined;
  const protocols = store.protocols.search(text, Math.max(limit, PATIENT_SCAN), newest);
  const orders = store.orders.list({ search: text, limit: Math.max(limit, PATIENT_SCAN), newest });
  const orderViews = orders.map((o) => ({
    id: o.id,
    customerName: `${o.customer.firstName} ${o.customer.lastName}`,
    sourceId: o.customer.sourceId,
    status: o.status,
    createdAt: o.createdAt,
  }));
  const terms = searchTerms(text);
  const namedBy = (o: { customerName: string; sourceId: string }) => {
    const names = normalizeForSearch(`${o.customerName} ${o.sourceId}`);
    return terms.every((t) => names.includes(t));
  };
  const patients = new Map<string, { sourceId: string; name: string }>();
  for (const p of [...protocols, ...orderViews.filter(namedBy)]) {
    const key = `${p.sourceId}\u0000${p.customerName}`;
    if (!patients.has(key)) patients.set(key, { sourceId: p.sourceId, name: p.customerName });
  }
  return {
    patients: [...patients.values()].slice(0, limit),
    protocols: protocols.slice(0, limit).map((p) => ({
      localId: p.localId,
      customerName: p.customerName,
      sourceId: p.sourceId,
    })),
    orders: orderViews.slice(0, limit),
    recentOnly,
  };
}
