import type { ActivityEntryView, ActivityDetail } from '@shared/activity-views';
import { fieldName } from '@shared/field-names';
import { plural } from '@renderer/lib/format';

/** This desk's settings, as the record names them (by key), in words. */
const SETTING_WORDS: Record<string, string> = {
  'ui.theme': 'theme',
  'ui.notifications': 'notifications',
  'ui.protocolColumns': 'protocol list columns',
  'app.updates': 'updates',
  'practice.enabled': 'practice mode',
  'desk.staff': 'people at this desk',
  'desk.atDesk': 'who is at the desk',
  'activity.retentionYears': 'activity record retention',
  webhookSecret: 'webhook secret (rotated)',
  'customer.address': 'Address',
};

/** A key the record holds in words: a setting, a protocol's field, else its camelCase spelled out. */
const keyWords = (key: string): string => {
  const known = SETTING_WORDS[key];
  if (known) return known;
  const named = fieldName(key);
  return named !== key ? named : key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
};
const keysText = (keys: readonly string[] | undefined) => (keys ?? []).map(keyWords).join(', ');

/** Who acted, as a row says it: the person picked at the desk and the OS account. */
export const personText = (e: Pick<ActivityEntryView, 'staff' | 'osUser'>): string =>
  e.staff ? `${e.staff} (${e.osUser})` : e.osUser;

const CHOICES: Record<NonNullable<ActivityDetail['choice']>, string> = {
  'keep-mine': 'kept this desk’s version',
  'take-theirs': 'took the server’s version',
  'keep-both': 'kept both',
};

const EFFECTS: Record<NonNullable<ActivityDetail['effect']>, string> = {
  dropped: 'never sent, so gone at once',
  queued: 'the delete waits to be sent',
  deferred: 'deleted once the change in flight is settled',
};

const STEPS: Record<NonNullable<ActivityDetail['step']>, string> = {
  create: 'a new protocol',
  edit: 'an edit',
  duplicate: 'a copy for another patient',
  delete: 'a delete',
  import: 'an import',
  resolve: 'a conflict resolution',
  untangle: 'a Patient ID untangled',
  columns: 'the protocol list’s columns',
  view: 'the protocol list’s filters',
};

const SOURCES: Record<NonNullable<ActivityDetail['source']>, string> = {
  batch: 'from the batch review',
  protocol: 'Order now',
  scratch: 'an order written from scratch',
};

const PATIENT_ID_CHOICES: Record<NonNullable<ActivityDetail['patientIdChoice']>, string> = {
  'use-stored': 'the same person: the stored details taken',
  'update-everywhere': 'the same person: details updated on every protocol of the Patient ID',
  'new-id': 'given a new Patient ID',
};

/** The facts of an entry in words (never more than the record holds: counts, choices, names). */
export function detailText(e: Pick<ActivityEntryView, 'action' | 'detail'>): string {
  const d = e.detail;
  const text = actionText(e.action, d);
  if (!d.patientIdChoice) return text;
  return [text, PATIENT_ID_CHOICES[d.patientIdChoice]].filter(Boolean).join('; ');
}

function actionText(action: ActivityEntryView['action'], d: ActivityDetail): string {
  switch (action) {
    case 'protocol-edited':
      return d.keys?.length ? `changed ${keysText(d.keys)}` : 'saved unchanged';
    case 'protocol-deleted':
      return d.effect ? EFFECTS[d.effect] : '';
    case 'conflict-resolved':
      return d.choice ? CHOICES[d.choice] : '';
    case 'batch-submitted':
      return [plural(d.count ?? 0, 'order'), d.source ? SOURCES[d.source] : null]
        .filter(Boolean)
        .join(', ');
    case 'batch-item-retried':
      return d.sendAnyway ? 'sent anyway, although it may repeat an order' : 'sent again';
    case 'csv-imported':
      return `${plural(d.count ?? 0, 'protocol')}${d.skipped ? `, ${plural(d.skipped, 'row')} skipped` : ''}`;
    case 'csv-exported':
      return `${d.what ?? 'rows'}: ${plural(d.count ?? 0, 'row')}${d.filters?.length ? `, filtered by ${keysText(d.filters)}` : ''}`;
    case 'schedule-printed':
    case 'schedule-saved':
      return d.schedules && d.schedules > 1 ? plural(d.schedules, 'schedule') : '';
    case 'settings-changed':
      return `${d.scope === 'partner' ? 'partner settings' : 'this desk'}: ${keysText(d.keys)}`;
    case 'connection-switched':
      return d.previousConnection ? `from ${d.previousConnection}` : 'the first connection';
    case 'connection-removed':
      return d.removed
        ? `with ${plural(d.removed.protocols, 'protocol')} and ${plural(d.removed.orders, 'order')}`
        : '';
    case 'store-recovered':
      return d.recovery
        ? `${plural(d.recovery.protocols, 'protocol')} recovered, ${plural(d.recovery.unreadable, 'row')} unreadable`
        : '';
    case 'store-encrypted':
      return 'with this desk’s key, kept in the system keychain';
    case 'undo':
    case 'redo':
      return d.step
        ? `${STEPS[d.step]}${d.count && d.count > 1 ? `, ${plural(d.count, 'protocol')}` : ''}`
        : '';
    case 'retention-purge':
      return d.purge
        ? `${plural(d.purge.removed, 'entry', 'entries')} older than ${plural(d.purge.years, 'year')}, through #${d.purge.lastRemovedSeq}`
        : '';
    default:
      return '';
  }
}

/** A local protocol id, shortened as a link shows it (the whole id is its name). */
export const shortId = (id: string): string => (id.length > 12 ? `${id.slice(0, 8)}…` : id);
