import { useCallback } from 'react';
import { navigate as hashNavigate, useHashLocation } from 'wouter/use-hash-location';

/**
 * A guard a screen sets while leaving it would lose something (unsaved changes). Every in-app
 * navigation (links, the sidebar, Ctrl/Cmd+1..8) goes through the router's navigate, which asks
 * the guard first; a guard that answers false keeps the user where they are (and usually asks).
 */
export type NavigationGuard = (to: string) => boolean;

let guard: NavigationGuard | null = null;
/**
 * True while the app itself navigates: wouter's navigate pushes the address and then dispatches a
 * `hashchange` of its own, which is not the user's Back or typing and must not be guarded again
 * (asking, then navigating, would dispatch another, without end).
 */
let navigating = false;

/** Moves to `to` through wouter's navigate, marked as the app's own move. */
function moveTo(to: string, options?: { replace?: boolean; state?: unknown }): void {
  navigating = true;
  try {
    hashNavigate(to, options);
  } finally {
    navigating = false;
  }
}

export function setNavigationGuard(next: NavigationGuard | null): void {
  guard = next;
}

/** Navigates without asking the guard (after the user agreed to leave). */
export function forceNavigate(to: string, options?: { replace?: boolean }): void {
  moveTo(to, options);
}

/** The route a URL's hash names ("#/orders/1" -> "/orders/1"). */
const routeOf = (url: string): string => new URL(url).hash.replace(/^#/, '') || '/';

/**
 * Back, forward or an address typed into the browser host's tab change the hash without the
 * router's navigate. The guard is asked about the new address as for a link; one it lets go is
 * left as the browser made it (the history stays as it was walked), one it holds is replaced by
 * the old address before the router sees the change (this listener is added when this module
 * loads, before the router subscribes).
 */
function onHashChange(event: HashChangeEvent): void {
  if (!guard || navigating) return;
  const to = routeOf(event.newURL);
  if (to === routeOf(event.oldURL)) return;
  if (!guard(to)) window.history.replaceState(window.history.state, '', event.oldURL);
}
if (typeof window !== 'undefined' && typeof window.addEventListener === 'function')
  window.addEventListener('hashchange', onHashChange);

/** useHashLocation whose navigate asks the guard first: the Router's `hook`. */
export function useGuardedHashLocation(): ReturnType<typeof useHashLocation> {
  const [location] = useHashLocation();
  const navigate = useCallback((to: string, options?: { replace?: boolean; state?: unknown }) => {
    if (guard && !guard(to)) return;
    moveTo(to, options);
  }, []);
  return [location, navigate] as ReturnType<typeof useHashLocation>;
}

// Links are written as hash hrefs ("#/protocols"), as with the plain hash location.
useGuardedHashLocation.hrefs = (href: string): string => `#${href}`;
