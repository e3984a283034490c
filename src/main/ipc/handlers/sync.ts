import { CREDENTIALS_REJECTED } from '@main/sync/sync-engine';
import { IpcFailure } from '../errors';
import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps, type Session } from './context';

/** sync.now: "Sync now", push then pull; a run that could not finish is a failure of the call. */
export function syncHandlers({ core }: IpcHandlerDeps): AreaHandlers<'sync'> {
  const withSession = sessionWrapper(core);
  const syncNow = async (s: Session): Promise<void> => {
    const damaged = core.damaged;
    const report = await s.sync.syncNow();
    // A store found damaged meanwhile is being recovered: what this run did is not a success.
    if (core.damaged !== damaged) {
      throw new IpcFailure(
        'storage',
        'The sync stopped: Order Desk found its local database damaged. It keeps the damaged file, recovers what it can read into a new one and tells you where the file is; sync again once it has.',
      );
    }
    if (report.phase === 'offline' && s.connectivity.reason === 'credentials-rejected') {
      throw new IpcFailure('unauthorized', `${CREDENTIALS_REJECTED} Local changes are kept.`);
    }
    if (report.phase === 'offline' && s.connectivity.reason === 'credentials-missing') {
      throw new IpcFailure(
        'keychain',
        "This connection's client secret is not in the keychain, so nothing was synced. Unlock the keychain, or enter the secret again in Connection (Edit on the connection); local changes are kept.",
      );
    }
    if (report.phase === 'offline' && s.connectivity.reason === 'not-api') {
      throw new IpcFailure(
        'network',
        "The network is not reaching the server (an answer that is not the API's, such as a Wi-Fi sign-in page), so nothing was synced. Sign in to the network; local changes are kept and sent when the server is back.",
      );
    }
    if (report.phase === 'offline') {
      throw new IpcFailure(
        'network',
        `The server cannot be reached, so nothing was synced. Local changes are kept and sent when it is back.${report.error ? ` (${report.error})` : ''}`,
      );
    }
    if (report.phase === 'error') {
      throw new IpcFailure('server', `The sync did not finish: ${report.error ?? 'unknown error'}`);
    }
  };

  return {
    'sync.now': withSession(async (_, s) => {
      await syncNow(s);
      return null;
    }),
  };
}
