import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { steadyClock } from '@main/clock';
import { CoreEventBus } from '@main/core-event-bus';
import { Redactor, silentLogger } from '@main/logging';
import { Session, type SessionTuning } from '@main/connection-session';
import { createLocalStore, type LocalStore } from '@main/stores';
import { startMainFixture, type MainFixture } from './main-fixture';
import { TEST_KEY } from './store-key';
import { sessionActivity } from './activity';

export interface Desk {
  session: Session;
  store: LocalStore;
}

export interface Desks {
  fx: MainFixture;
  desks: Desk[];
  close(): Promise<void>;
}

/**
 * Several desks of one clinic on one partner account: a real sandbox, and per desk its own store
 * and a whole Session (as the app wires it), all started. The first desk uses the fixture's store.
 */
export async function startDesks(count: number, tuning: SessionTuning = {}): Promise<Desks> {
  const fixtureClock = steadyClock();
  const fx = await startMainFixture({ clock: fixtureClock });
  const dirs: string[] = [];
  const desks: Desk[] = [];
  for (let i = 0; i < count; i++) {
    // As Core does: the desk's store and its session keep one steady clock.
    const clock = i === 0 ? fixtureClock : steadyClock();
    let store = fx.store;
    if (i > 0) {
      const dir = mkdtempSync(join(tmpdir(), `od-desk-${i}-`));
      dirs.push(dir);
      store = createLocalStore(join(dir, 'store.db'), { key: TEST_KEY, clock });
    }
    const session = new Session({
      connection: fx.connection,
      clientSecret: async () => fx.sandbox.clientSecret,
      store,
      bus: new CoreEventBus(),
      log: process.env.DESKS_LOG
        ? ({
            ...silentLogger,
            info: (m: string) => console.error(`desk ${i}: ${m}`),
            child() {
              return this;
            },
          } as never)
        : silentLogger,
      redactor: new Redactor(),
      clock,
      ...sessionActivity(store, clock),
      tuning: { client: { sleep: async () => undefined }, probeBackoffMs: 50, ...tuning },
    });
    session.start();
    desks.push({ session, store });
  }
  return {
    fx,
    desks,
    async close() {
      for (const d of desks) await d.session.stop();
      for (const d of desks.slice(1)) d.store.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      await fx.close();
    },
  };
}

/** Protocol changes of a desk not settled yet (queued, in flight, in doubt). */
export const unsentChanges = (store: LocalStore): number => {
  const c = store.jobs.counts({ kind: 'protocol' });
  return c.queued + c.sending + c.in_doubt;
};
