import type { ActivityAction } from './activity-views';

/** Each action in words, as the Activity screen and the record's CSV export say it. */
export const ACTION_WORDS: Record<ActivityAction, string> = {
  'protocol-created': 'Protocol created',
  'protocol-edited': 'Protocol edited',
  'protocol-duplicated': 'Protocol copied for another patient',
  'protocol-deleted': 'Protocol deleted',
  'conflict-resolved': 'Conflict resolved',
  'batch-submitted': 'Batch submitted',
  'batch-item-retried': 'Batch item sent again',
  'order-created': 'Order created',
  'order-cancelled': 'Order cancelled',
  'csv-imported': 'CSV imported',
  'csv-exported': 'CSV exported',
  'schedule-printed': 'Schedule printed',
  'schedule-saved': 'Schedule saved as PDF',
  'connection-switched': 'Connection switched',
  'connection-removed': 'Connection removed',
  'settings-changed': 'Settings changed',
  'store-recovered': 'Local database recovered',
  'store-encrypted': 'Local database encrypted',
  'retention-purge': 'Old entries removed (retention)',
  undo: 'Undone',
  redo: 'Redone',
};
