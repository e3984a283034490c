import { StoreNotice } from '@shared/store-views';
import type { Clock } from '../clock';
import type { Db } from './db';
import { jsonText, parseRow, prepareCached } from './rows';

/** Notices the user must see until they dismiss them, in the app store. */
export class NoticesRepo {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Records a notice; one with the same id is kept as it was (telling twice is harmless). */
  add(notice: StoreNotice): void {
    prepareCached(
      this.db,
      `INSERT INTO notices (id, kind, created_at, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
    ).run(notice.id, notice.kind, this.clock.now(), JSON.stringify(StoreNotice.parse(notice)));
  }

  /** The notices not dismissed, oldest first. */
  shown(): StoreNotice[] {
    return (
      prepareCached(
        this.db,
        'SELECT id, body FROM notices WHERE dismissed_at IS NULL ORDER BY created_at, id',
      ).all() as { id: string; body: string }[]
    ).map((row) => parseRow(jsonText(StoreNotice), row.body, 'notices', `id=${row.id}`));
  }

  /** Marks a notice read; false when there is none shown with that id. */
  dismiss(id: string): boolean {
    return (
      prepareCached(
        this.db,
        'UPDATE notices SET dismissed_at = ? WHERE id = ? AND dismissed_at IS NULL',
      ).run(this.clock.now(), id).changes === 1
    );
  }
}
