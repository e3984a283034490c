import { Connection } from '@shared/connection';
import type { PartnerConnectionInput } from '@shared/ipc';
import type { NewConnection } from '@main/connection-manager';
import { toConnectionView } from '../connection-view';
import { IpcFailure, describeFieldErrors, fieldErrorsOf } from '../errors';
import type { AreaHandlers, IpcHandlerDeps } from './context';

/** connections.*: the saved connections, testing, connecting, switching, editing, removing. */
export function connectionsHandlers({ core }: IpcHandlerDeps): AreaHandlers<'connections'> {
  return {
    // Issue 12 (polish): a saved connection says when its secret is missing from the keychain.
    'connections.list': async () =>
      Promise.all(
        core.listConnections().map(async (c) => ({
          ...toConnectionView(c),
          secretMissing: await core.secretMissing(c),
        })),
      ),
    'connections.test': async (input) => {
      const { connection, secret } = splitPartnerInput(input);
      return core.testConnection(connection, secret);
    },
    'connections.connect': async (input) => {
      const { connection, secret } = splitPartnerInput(input);
      return toConnectionView(await core.connect(connection, secret));
    },
    'connections.useEmbedded': async () => toConnectionView(await core.useEmbedded()),
    'connections.activate': async ({ id }) => toConnectionView(await core.activate(id)),
    // Issue 12 (polish): edit a saved connection / enter its secret again.
    'connections.update': async ({ id, clientSecret, ...fields }) => {
      const { connection } = splitPartnerInput({ ...fields, clientSecret: clientSecret ?? '-' });
      return toConnectionView(await core.updateConnection(id, connection, clientSecret));
    },
    'connections.removal': async ({ id }) => core.removal(id),
    'connections.remove': async ({ id }) => ({ removed: await core.removeConnection(id) }),
  };
}

/** A partner connection's fields checked as the stored Connection will be (URLs, https rule). */
function splitPartnerInput(input: PartnerConnectionInput): {
  connection: NewConnection;
  secret: string;
} {
  const { clientSecret, ...fields } = input;
  const checked = Connection.safeParse({ ...fields, id: 'probe' });
  if (!checked.success) {
    const fieldErrors = fieldErrorsOf(checked.error.issues);
    throw new IpcFailure(
      'invalid-arguments',
      `Check the connection details: ${describeFieldErrors(fieldErrors)}.`,
      fieldErrors,
    );
  }
  return { connection: fields, secret: clientSecret };
}
