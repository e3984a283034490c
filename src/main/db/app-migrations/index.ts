import type { Migration } from '../migrations';
import { appMigration001 } from './001-app';

/**
 * The app store's schema (app.db), one entry per version, as MIGRATIONS is for the connection
 * stores. Append new versions; never edit a released one.
 */
export const APP_MIGRATIONS: readonly Migration[] = [appMigration001];
