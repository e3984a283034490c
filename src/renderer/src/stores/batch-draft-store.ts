import { create } from 'zustand';

/**
 * The protocols chosen for the next batch, handed from where they were picked (the protocol
 * list, refills due) to the review screen at #/batches/review.
 */
interface BatchDraftStore {
  protocolLocalIds: string[];
  /** Where the user picked them, to go back to ("/protocols", "/refills"). */
  from: string;
  /** Per protocol picked on Refills due, the last order of the supply it refills. */
  refillOf: Readonly<Record<string, string>>;
  choose(
    protocolLocalIds: readonly string[],
    from: string,
    refillOf?: Readonly<Record<string, string>>,
  ): void;
  clear(): void;
}

export const useBatchDraftStore = create<BatchDraftStore>((set) => ({
  protocolLocalIds: [],
  from: '/protocols',
  refillOf: {},
  choose: (protocolLocalIds, from, refillOf = {}) =>
    set({ protocolLocalIds: [...protocolLocalIds], from, refillOf }),
  clear: () => set({ protocolLocalIds: [], refillOf: {} }),
}));
