import { create } from 'zustand';

/**
 * The protocols chosen for the next batch, handed from where they were picked (the protocol
 * list, refills due) to the review screen at #/batches/review.
 */
interface BatchDraftStore {
  protocolLocalIds: string[];
  /** Where the user picked them, to go back to ("/protocols", "/refills"). */
  from: string;
  choose(protocolLocalIds: readonly string[], from: string): void;
  clear(): void;
}

export const useBatchDraftStore = create<BatchDraftStore>((set) => ({
  protocolLocalIds: [],
  from: '/protocols',
  choose: (protocolLocalIds, from) => set({ protocolLocalIds: [...protocolLocalIds], from }),
  clear: () => set({ protocolLocalIds: [] }),
}));
