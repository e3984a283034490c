import type Database from 'better-sqlite3-multiple-ciphers';
import { migration001 } from './001-initial';
import { migration002 } from './002-jobs';
import { migration003 } from './003-lists-and-timeline';
import { migration004 } from './004-list-indexes';
import { migration005 } from './005-change-order';
import { migration006 } from './006-name-order';
import { migration007 } from './007-protocol-origin';
import { migration008 } from './008-possible-duplicates';
import { migration009 } from './009-job-server-time';
import { migration010 } from './010-protocol-products';
import { migration011 } from './011-batch-name';
import { migration012 } from './012-protocol-columns';
import { migration013 } from './013-activity';
import { migration014 } from './014-content-supply';
import { migration015 } from './015-repeat-cancels';
import { migration016 } from './016-order-figures';
import { migration017 } from './017-undo-steps';
import { migration018 } from './018-order-days';
import { migration019 } from './019-order-search';

/**
 * One schema version: SQL, or a function of the connection for a step that needs code (a column
 * derived with the app's text normalisation). Runs inside the migration's transaction. A
 * migration imports no live code: what it needs is copied into it as it was at that version
 * (frozen), so that a later change to the app cannot change what an old version writes.
 */
export type Migration = string | ((db: Database.Database) => void);

/**
 * The schema, one entry per version: MIGRATIONS[n] takes a database from user_version n to n + 1.
 * Append new versions; never edit a released one.
 */
export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
