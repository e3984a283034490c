import { createElement, lazy, type ComponentType } from 'react';

export interface LazyScreen<P extends object> {
  (props: P): ReturnType<typeof createElement>;
  /** Starts loading the screen's code now (idempotent). */
  preload(): Promise<unknown>;
}

/**
 * A screen whose code is its own chunk, like React.lazy, that can be loaded ahead of use. Once
 * loaded, it renders directly: navigating to it does not suspend. (A suspended navigation shows
 * the fallback and React then holds the new screen back for its fallback throttle, about 300 ms,
 * however fast the chunk arrived.)
 */
export function lazyScreen<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = null; // a failed fetch (host restarting, say) is tried again on the next use
        throw error;
      },
    ));
  const Lazy = lazy(preload);
  const Screen = (props: P) => createElement(loaded ?? Lazy, props);
  Screen.preload = preload;
  return Screen;
}
