import { Practice } from '@main/practice';
import type { AreaHandlers, IpcHandlerDeps } from './context';

/** practice.*: the built-in sandbox's controls, only on it and only in practice mode. */
export function practiceHandlers({ core }: IpcHandlerDeps): AreaHandlers<'practice'> {
  const practice = new Practice({ app: core.app, active: core.active });
  return {
    'practice.state': () => practice.state(),
    'practice.setEnabled': ({ enabled }) => practice.setEnabled(enabled),
    'practice.advanceOrder': (args) => practice.advanceOrder(args),
    'practice.setOffline': ({ offline }) => practice.setOffline(offline),
    'practice.setServer': ({ server }) => practice.setServer(server),
    'practice.changeProtocol': ({ protocolId }) => practice.changeProtocol(protocolId),
    'practice.setProductStatus': ({ productId, status }) =>
      practice.setProductStatus(productId, status),
  };
}
