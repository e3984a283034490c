import { migration001 } from './001-initial';
import { migration002 } from './002-jobs';

/**
 * The schema, one entry per version: MIGRATIONS[n] takes a database from user_version n to n + 1.
 * Append new versions; never edit a released one.
 */
export const MIGRATIONS: readonly string[] = [migration001, migration002];

export const SCHEMA_VERSION = MIGRATIONS.length;
