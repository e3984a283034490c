import type { ActivityActor } from '@shared/activity-views';
import { ActivityLog } from '@main/activity/activity-log';
import { systemClock, type Clock } from '@main/clock';
import type { LocalStore } from '@main/stores';

/** The desk and person the tests' entries name. */
export const TEST_ACTOR: ActivityActor = {
  deskId: 'test-desk',
  deskName: 'test-pc',
  osUser: 'tester',
  staff: null,
};

/** The activity record of `store` as a Session is given it, naming TEST_ACTOR. */
export const testActivity = (store: LocalStore, clock: Clock = systemClock): ActivityLog =>
  new ActivityLog({ repo: store.activity, actor: () => TEST_ACTOR, clock });

/** What a Session takes for its activity record and its retention (six years). */
export const sessionActivity = (store: LocalStore, clock: Clock = systemClock) => ({
  activity: testActivity(store, clock),
  retention: { years: () => 6, wall: clock },
});
