/**
 * The stores the benches measure. Every store of the app is encrypted (docs/security.md,
 * "Encryption at rest"), so the benches measure encrypted stores, with a key of their own; to
 * measure what the encryption costs, a bench opens the same store unencrypted beside it
 * (`'unencrypted'`, which db.ts keeps for the benches alone), fills both with the same data and
 * runs the same work on each in turn (`inTurn`), so that whatever else the machine does falls
 * on both alike.
 */
import { StoreKey } from '@shared/store-cipher';
import { createLocalStore, type LocalStore, type LocalStoreOptions } from '@main/stores';

/**
 * The benches' key: fixed, so that a store a bench keeps (order-queue-store.ts --db) opens at its
 * next run. A bench's store holds generated data only.
 */
export const BENCH_KEY = StoreKey.parse('be4c'.repeat(16));

/**
 * For investigations only (never set by `npm run bench`): each bench store's page cache in MB, in
 * place of the app's (256 MB, db.ts STORE_CACHE_KIB). `BENCH_CACHE_MB=16 npm run bench:search`
 * shows what the encryption costs with SQLite's default cache, which the searches outgrow.
 */
export const CACHE_ENV = 'BENCH_CACHE_MB';

export type StoreMode = 'encrypted' | 'plain';
export const MODES: readonly StoreMode[] = ['encrypted', 'plain'];

/**
 * The store at `file`, encrypted with BENCH_KEY, or the same store unencrypted ('plain'). The
 * plain store keeps its temporary tables and statement journals in memory too, as the key's
 * settings do for an encrypted one (cipher.ts applyKey): the two differ by the cipher alone. (A
 * version before encryption left them to temporary files, which costs its writes more: the
 * statement journals of a large transaction spill to disk.)
 */
export function benchStore(
  file: string,
  mode: StoreMode = 'encrypted',
  options: Omit<LocalStoreOptions, 'key'> = {},
): LocalStore {
  const store = createLocalStore(file, {
    ...options,
    key: mode === 'encrypted' ? BENCH_KEY : 'unencrypted',
  });
  if (mode === 'plain') store.db.pragma('temp_store = MEMORY');
  const cacheMb = Number(process.env[CACHE_ENV] ?? '');
  if (cacheMb > 0) store.db.pragma(`cache_size = -${Math.round(cacheMb * 1024)}`);
  return store;
}

/**
 * The two modes in the order of turn `i`: encrypted first on even turns, plain first on odd
 * ones, so that neither always runs right after the other (warm CPU caches, a burst of other
 * work) and drift over the run hits both equally.
 */
export const inTurn = (i: number): readonly StoreMode[] =>
  i % 2 === 0 ? MODES : [...MODES].reverse();

/** One call's time on each store: wall clock, and the CPU this process used meanwhile. */
export interface TurnTimes {
  ms: Record<StoreMode, number>;
  /** CPU ms (user + system, every thread of the process): what waiting for a core leaves out. */
  cpu: Record<StoreMode, number>;
}

/** Runs `fn` once per mode, in turn `i`'s order, and returns each mode's times. */
export function timeInTurn(i: number, fn: (mode: StoreMode) => unknown): TurnTimes {
  const times: TurnTimes = { ms: { encrypted: 0, plain: 0 }, cpu: { encrypted: 0, plain: 0 } };
  for (const mode of inTurn(i)) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    fn(mode);
    times.ms[mode] = performance.now() - start;
    const used = process.cpuUsage(cpu);
    times.cpu[mode] = (used.user + used.system) / 1000;
  }
  return times;
}

/** "encrypted 1.23 ms, plain 1.10 ms: 1.12×" */
export function costLine(encrypted: number, plain: number, unit = 'ms'): string {
  const f = (v: number) => (v < 10 ? v.toFixed(3) : v.toFixed(1));
  return `encrypted ${f(encrypted)} ${unit}, plain ${f(plain)} ${unit}: ${(encrypted / plain).toFixed(3)}×`;
}

/** The parts of an encryption-cost figure (bench/report.ts): encrypted, then plain. */
export const costParts = (
  encrypted: number,
  plain: number,
  unit = 'ms',
): [
  { label: string; value: number; unit: string },
  { label: string; value: number; unit: string },
] => [
  { label: 'encrypted', value: encrypted, unit },
  { label: 'plain', value: plain, unit },
];
