import type { StoreFault } from './store-faults';

/**
 * What a fault of the disk means for the user, in plain words: what happened, that nothing
 * saved before is lost (every write is one transaction: a refused one leaves nothing half
 * written), and what to do. `dataDir` is the folder Order Desk keeps its data in.
 */
export function storeFaultMessage(fault: StoreFault, dataDir: string): string {
  switch (fault) {
    case 'full':
      return `The disk is full: Order Desk could not save this. Free some space on the disk that holds ${dataDir}, then try again; nothing you saved before is lost.`;
    case 'read-only':
      return `Order Desk cannot write to ${dataDir} (the disk or the folder is read-only, or its permissions changed), so this was not saved. Nothing you saved before is lost; make the folder writable again, then try again.`;
    case 'io':
      return `The disk that holds ${dataDir} reported an error, so Order Desk could not save this. Nothing you saved before is lost; check the disk, then try again.`;
    case 'damaged':
      return `Order Desk found its local database in ${dataDir} damaged. It keeps the damaged file, recovers what it can still read into a new one, and tells you where the file is; try again in a moment.`;
  }
}

/** The same as a standing state (the banner while the disk refuses writes in the background). */
export function storageProblemMessage(fault: Exclude<StoreFault, 'damaged'>, dataDir: string) {
  switch (fault) {
    case 'full':
      return `The disk is full: Order Desk cannot save changes or record the work it sends. Free some space on the disk that holds ${dataDir}. Nothing you saved is lost, and the work continues by itself once there is room.`;
    case 'read-only':
      return `Order Desk cannot write to ${dataDir} (read-only disk or folder). Nothing you saved is lost; the work continues by itself once the folder can be written again.`;
    case 'io':
      return `The disk that holds ${dataDir} reports errors: Order Desk cannot save changes. Nothing you saved is lost; check the disk.`;
  }
}
