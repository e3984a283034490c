import type { CoreEventName, CoreEvents } from '../shared/core-events';

type Listener<T> = (payload: T) => void;

/**
 * The main process's event bus: sync, outbox, batches and the poller emit here; the IPC layer
 * and desktop notifications listen. A listener that throws does not stop the others.
 */
export class CoreEventBus {
  private readonly listeners = new Map<CoreEventName, Set<Listener<never>>>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  on<K extends CoreEventName>(name: K, listener: Listener<CoreEvents[K]>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  emit<K extends CoreEventName>(name: K, payload: CoreEvents[K]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as Listener<CoreEvents[K]>)(payload);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
