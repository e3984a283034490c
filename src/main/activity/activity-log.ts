import type {
  ActivityAction,
  ActivityActor,
  ActivityDetail,
  ActivitySubjects,
} from '@shared/activity-views';
import type { Clock } from '../clock';
import type { ActivityEntry, ActivityRepo } from './activity-repo';

/** What a command records: the action, the ids it touched and the facts that are not patient data. */
export interface ActivityInput {
  action: ActivityAction;
  subjects?: ActivitySubjects;
  detail?: ActivityDetail;
  /** Who acted, when not the person at this desk now (an order a batch made later: its submitter). */
  actor?: ActivityActor;
  /** The app did it by itself (a purge, a recovery): this desk and account, no person named. */
  byApp?: boolean;
}

export interface ActivityLogOptions {
  /** The activity table of the store the entries go to. */
  repo: Pick<ActivityRepo, 'append'>;
  /** Who is at the desk now (desk.ts), read at each entry. */
  actor: () => ActivityActor;
  /** The PC's clock: an entry's local time. */
  clock: Clock;
  /** The server's time when it is known and the server reachable, else null. */
  serverNow?: () => number | null;
}

/**
 * The one way main records what was done (docs/architecture.md, "The activity record"): each
 * command that does something a clinic must be able to show calls `record`, inside the
 * transaction of its own write where it has one, so the two commit together. One per store;
 * the commands are given it as a collaborator.
 */
export class ActivityLog {
  constructor(private readonly o: ActivityLogOptions) {}

  record(input: ActivityInput): ActivityEntry {
    return this.o.repo.append({
      action: input.action,
      subjects: compact(input.subjects ?? {}),
      detail: input.detail ?? {},
      actor: input.actor ?? (input.byApp ? { ...this.o.actor(), staff: null } : this.o.actor()),
      atLocal: this.o.clock.now(),
      atServer: this.o.serverNow?.() ?? null,
    });
  }

  /** Who is at the desk now (what a batch keeps for the orders it makes later). */
  actor(): ActivityActor {
    return this.o.actor();
  }
}

/** Subjects without empty lists, each list without repeats. */
function compact(subjects: ActivitySubjects): ActivitySubjects {
  const out: ActivitySubjects = {};
  for (const [key, value] of Object.entries(subjects) as [keyof ActivitySubjects, unknown][]) {
    if (Array.isArray(value)) {
      if (value.length > 0) (out as Record<string, unknown>)[key] = [...new Set(value)];
    } else if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}
