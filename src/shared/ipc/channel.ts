import { z } from 'zod';
import type { ChangeSubject } from '../core-events';

/** One channel of the contract: the schemas of its one argument and of its result. */
export interface ChannelSpec {
  args: z.ZodType;
  result: z.ZodType;
  /** A read's subjects; null for a command. */
  subjects: readonly ChangeSubject[] | null;
}

/** The channels of one area's module: each named `<area>.*`, so no two areas share a name. */
export type AreaChannels<A extends string> = Record<`${A}.${string}`, ChannelSpec>;

/** A command, or a read made once (an export, a review): it says nothing of what it depends on. */
export const call = <A extends z.ZodType, R extends z.ZodType>(args: A, result: R) => ({
  args,
  result,
  subjects: null,
});

/**
 * A read: answers from what main keeps, writes nothing. `subjects` are every subject its answer
 * depends on, stated here once: the renderer's live queries read it again when one changes, and
 * the contract suite (test/integration/main/ipc/contract-suite.ts) fails when its SQL reads a table of another subject.
 */
export const read = <A extends z.ZodType, R extends z.ZodType>(
  args: A,
  result: R,
  subjects: readonly [ChangeSubject, ...ChangeSubject[]],
) => ({ args, result, subjects });

/** The argument of a channel that takes none. */
export const None = z.object({}).strict();
/** The result of a command that answers nothing. */
export const Nothing = z.null();
