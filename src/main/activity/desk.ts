import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { z } from 'zod';
import {
  STAFF_MAX,
  StaffList,
  StaffName,
  type ActivityActor,
  type StaffView,
} from '@shared/activity-views';
import { SETTING_KEYS, type SettingsRepo } from '../db/settings-repo';

/** A change to the staff list that cannot be made (a name twice, one not in the list). */
export class StaffRefused extends Error {
  override readonly name = 'StaffRefused';
  constructor(
    message: string,
    /** The argument it is about ('name', 'to'). */
    readonly field: string,
  ) {
    super(message);
  }
}

export interface DeskOptions {
  settings: Pick<SettingsRepo, 'get' | 'set'>;
  /** The computer's name; default os.hostname(). */
  hostname?: () => string;
  /** The OS account; default os.userInfo().username, else $USER or $USERNAME. */
  osUser?: () => string;
}

const DeskId = z.string().min(1).max(100);
const AtDesk = z.string().nullable();

/**
 * This desk, for the activity record: its id (random, made once per data folder), the
 * computer's name and the OS account (the login is the boundary: no password of our own), the
 * short list of people who share it and who of them is at it now, all kept in app.db.
 */
export class Desk {
  readonly id: string;
  private readonly hostname: () => string;
  private readonly osUser: () => string;

  constructor(private readonly o: DeskOptions) {
    this.hostname = o.hostname ?? hostname;
    this.osUser = o.osUser ?? osAccount;
    const kept = o.settings.get(SETTING_KEYS.deskId, DeskId.nullable(), null);
    this.id = kept ?? randomUUID();
    if (kept === null) o.settings.set(SETTING_KEYS.deskId, this.id);
  }

  /** Who acts now: this desk, the OS account and the person picked (null when none is). */
  actor(): ActivityActor {
    return {
      deskId: this.id,
      deskName: oneLine(safely(this.hostname)) || 'unknown',
      osUser: oneLine(safely(this.osUser)) || 'unknown',
      staff: this.atDesk(),
    };
  }

  staff(): string[] {
    return this.o.settings.get(SETTING_KEYS.staff, StaffList, []);
  }

  /** The person picked as at the desk; null when none is, or the name left the list. */
  atDesk(): string | null {
    const name = this.o.settings.get(SETTING_KEYS.atDesk, AtDesk, null);
    return name !== null && this.staff().includes(name) ? name : null;
  }

  view(): StaffView {
    return { staff: this.staff(), atDesk: this.atDesk() };
  }

  add(name: string): StaffView {
    const staff = this.staff();
    const added = StaffName.parse(name);
    if (staff.length >= STAFF_MAX)
      throw new StaffRefused(`The list holds at most ${STAFF_MAX} people.`, 'name');
    this.refuseTaken(staff, added, 'name');
    this.o.settings.set(SETTING_KEYS.staff, [...staff, added]);
    return this.view();
  }

  /** Renames a person; when they are at the desk, they stay picked under the new name. */
  rename(from: string, to: string): StaffView {
    const staff = this.staff();
    const renamed = StaffName.parse(to);
    if (!staff.includes(from)) throw notListed(from, 'from');
    this.refuseTaken(
      staff.filter((s) => s !== from),
      renamed,
      'to',
    );
    const atDesk = this.atDesk();
    this.o.settings.set(
      SETTING_KEYS.staff,
      staff.map((s) => (s === from ? renamed : s)),
    );
    if (atDesk === from) this.o.settings.set(SETTING_KEYS.atDesk, renamed);
    return this.view();
  }

  /** Removes a person; when they were at the desk, nobody is picked any more. */
  remove(name: string): StaffView {
    const staff = this.staff();
    if (!staff.includes(name)) throw notListed(name, 'name');
    if (this.atDesk() === name) this.o.settings.set(SETTING_KEYS.atDesk, null);
    this.o.settings.set(
      SETTING_KEYS.staff,
      staff.filter((s) => s !== name),
    );
    return this.view();
  }

  /** Picks who is at the desk (null: nobody picked); kept until changed. */
  choose(name: string | null): StaffView {
    if (name !== null && !this.staff().includes(name)) throw notListed(name, 'name');
    this.o.settings.set(SETTING_KEYS.atDesk, name);
    return this.view();
  }

  private refuseTaken(staff: readonly string[], name: string, field: string): void {
    if (staff.some((s) => s.toLocaleLowerCase() === name.toLocaleLowerCase()))
      throw new StaffRefused(`${name} is already in the list.`, field);
  }
}

const notListed = (name: string, field: string) =>
  new StaffRefused(`${name} is not in the list of people at this desk.`, field);

/** The OS account's name; a process with no account entry falls back to the environment. */
function osAccount(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? '';
  }
}

function safely(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}

/** One line of at most 255 characters (a name from the OS is not checked by anyone else). */
const oneLine = (text: string): string =>
  text
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, 255);
