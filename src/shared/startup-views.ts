import { z } from 'zod';

/**
 * What the app is doing before its data is open, for the window to show: opening it; encrypting
 * the stores an earlier version left unencrypted (first start of this version), with progress;
 * waiting for the user because the files cannot be opened with this desk's key; or failed.
 */
export const StartupView = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('starting') }),
  z.object({
    phase: z.literal('encrypting'),
    /** The store being encrypted now. */
    file: z.string(),
    /** Which of how many files. */
    fileNumber: z.int().min(1),
    files: z.int().min(1),
    /** Bytes of work done out of the total, over every file. */
    done: z.number().min(0),
    total: z.number().min(0),
  }),
  z.object({
    phase: z.literal('locked'),
    /**
     * 'key-missing': the keychain has no key for this data folder (reset, or the folder came from
     * another computer); 'wrong-key': files that this desk's key does not open (made with another
     * key, or damaged beyond reading); 'keychain': the keychain itself cannot be reached.
     */
    reason: z.enum(['key-missing', 'wrong-key', 'keychain']),
    message: z.string(),
    /** The files that cannot be opened: kept, never deleted. */
    files: z.array(z.string()),
    dataDir: z.string(),
    /** Whether "Start fresh" is possible (not while the keychain cannot be reached). */
    canStartFresh: z.boolean(),
  }),
  z.object({ phase: z.literal('failed'), message: z.string() }),
  z.object({ phase: z.literal('ready') }),
]);
export type StartupView = z.infer<typeof StartupView>;
