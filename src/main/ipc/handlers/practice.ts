import { Practice } from '@main/practice';
import { SETTING_KEYS } from '@main/db';
import type { AreaHandlers, IpcHandlerDeps } from './context';

/** practice.*: the built-in sandbox's controls, only on it and only in practice mode. */
export function practiceHandlers({ core }: IpcHandlerDeps): AreaHandlers<'practice'> {
  const practice = new Practice({ app: core.app, active: core.active });
  return {
    'practice.state': () => practice.state(),
    'practice.setEnabled': async ({ enabled }) => {
      const before = (await practice.state()).enabled;
      const state = await practice.setEnabled(enabled);
      if (state.enabled !== before)
        core.recordActivity({
          action: 'settings-changed',
          detail: { scope: 'app', keys: [SETTING_KEYS.practice] },
        });
      return state;
    },
    'practice.advanceOrder': (args) => practice.advanceOrder(args),
    'practice.setOffline': ({ offline }) => practice.setOffline(offline),
    'practice.setServer': ({ server }) => practice.setServer(server),
    'practice.setFulfillment': async (choice) => {
      const state = await practice.setFulfillment(choice);
      core.announce(['status']); // the header's mark and the Practice screen read it again
      return state;
    },
    'practice.stepOrders': () => practice.stepOrders(),
    'practice.changeProtocol': ({ protocolId }) => practice.changeProtocol(protocolId),
    'practice.setProductStatus': ({ productId, status }) =>
      practice.setProductStatus(productId, status),
  };
}
