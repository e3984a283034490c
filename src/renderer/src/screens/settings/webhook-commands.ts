import { call } from '@renderer/lib/ipc';

/** The webhook secret main keeps: read it to show or copy, or make a new one. */
export function revealWebhookSecret() {
  return call('settings.revealWebhookSecret', {});
}

export function rotateWebhookSecret() {
  return call('settings.rotateWebhookSecret', { confirm: true });
}
