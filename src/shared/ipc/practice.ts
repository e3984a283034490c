import { z } from 'zod';
import { AppOrder } from '../api';
import {
  PracticeAdvance,
  PracticeFulfillmentChoice,
  PracticeOffline,
  PracticeProduct,
  PracticeProductChange,
  PracticeProtocol,
  PracticeProtocolChange,
  PracticeServerChoice,
  PracticeState,
  PracticeStep,
} from '../practice-views';
import { call, None, read, type AreaChannels } from './channel';

/**
 * practice.*: the built-in sandbox's controls in the app. Every call but practice.state is
 * refused unless the active connection is the built-in sandbox (and, for the controls, practice
 * mode is on); nothing here reaches a partner or production server.
 */
export const practiceChannels = {
  'practice.state': read(None, PracticeState, ['settings', 'connection', 'status']),
  'practice.setEnabled': call(z.object({ enabled: z.boolean() }), PracticeState),
  /** Moves an order of the built-in sandbox up to a status (SHIPPED and on: with tracking). */
  'practice.advanceOrder': call(PracticeAdvance, AppOrder),
  /** The built-in sandbox as if gone (offline) or back. */
  'practice.setOffline': call(PracticeOffline, PracticeState),
  /** The built-in sandbox answers normally, slowly (3 s late) or failing (503 to every request). */
  'practice.setServer': call(PracticeServerChoice, PracticeState),
  /** The built-in sandbox's own fulfillment: paused or running, slow, normal or fast. */
  'practice.setFulfillment': call(PracticeFulfillmentChoice, PracticeState),
  /** Every order of the built-in sandbox on its way moves one step now (paused or not). */
  'practice.stepOrders': call(None, PracticeStep),
  /**
   * Changes a protocol on the built-in sandbox as another desk would (its shipping method), even
   * while it is offline for this app: edited here too, it becomes a conflict.
   */
  'practice.changeProtocol': call(PracticeProtocol, PracticeProtocolChange),
  /** The partner discontinues, backorders or restocks a product; the catalog follows at once when online. */
  'practice.setProductStatus': call(PracticeProduct, PracticeProductChange),
} as const satisfies AreaChannels<'practice'>;
