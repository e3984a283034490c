import type { StoreNotice } from '../shared/store-views';
import type { CoreEventBus } from './core-event-bus';
import type { Logger } from './logging';
import type { AppStore } from './stores/app-store';
import type { RecoveryRecord } from './stores/local-store-recovery';

/**
 * What the user is told until they dismiss it (a damaged store recovered): kept in the app
 * store, pushed as the `store-notices` event, a banner in the window.
 */
export class Notices {
  constructor(
    private readonly o: { app: Pick<AppStore, 'notices'>; bus: CoreEventBus; log: Logger },
  ) {}

  /** The notices the user has not dismissed. */
  shown(): StoreNotice[] {
    return this.o.app.notices.shown();
  }

  dismiss(id: string): boolean {
    const dismissed = this.o.app.notices.dismiss(id);
    if (dismissed) this.o.bus.emit('store-notices', { notices: this.shown() });
    return dismissed;
  }

  /** Records what a recovery did as a notice for the user, and pushes the notices shown. */
  recovered(record: RecoveryRecord, label: string): void {
    const notice: StoreNotice = {
      id: record.id,
      kind: 'store-recovered',
      at: new Date(record.at).toISOString(),
      connectionLabel: label,
      cause: record.cause,
      keptAt: record.keptAt,
      storeFile: record.storeFile,
      recovered: record.recovered,
      unreadable: record.unreadable,
    };
    this.o.app.notices.add(notice);
    this.o.log
      .child('store')
      .warn(
        `the store of "${label}" was damaged; it is kept at ${record.keptAt} and ${record.recovered.protocols} protocol(s) were recovered (${record.unreadable} row(s) could not be read${record.lostTables.length ? `; nothing of ${record.lostTables.join(', ')}` : ''})`,
      );
    queueMicrotask(() => this.o.bus.emit('store-notices', { notices: this.shown() }));
  }
}
