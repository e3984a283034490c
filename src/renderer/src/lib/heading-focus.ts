import { useEffect, useRef, type RefObject } from 'react';

/** How long after a navigation the new screen's heading is waited for (a protocol loading). */
const WAIT_MS = 5_000;

interface Navigation {
  location: string;
  /** What had the focus when the navigation began (the link, the button, a field). */
  focusedBefore: Element | null;
  /** The main region's h1 before the navigation: the same node after it is the same screen. */
  headingBefore: Element | null;
}

/**
 * On every change of route, focus moves to the new screen's h1 (tabIndex=-1, without scrolling),
 * so a keyboard or screen-reader user goes on from the top of the screen. The same screen keeps
 * the focus; a screen that put it inside itself on purpose keeps its choice; otherwise the h1.
 * Focus falling to the body within WAIT_MS (an h1 shown once data is read) goes to the current
 * h1. The whole rule: docs/decisions.md, "Focus after navigation".
 */
export function useHeadingFocusOnNavigate(
  location: string,
  main: RefObject<HTMLElement | null>,
): void {
  const navigation = useRef<Navigation | null>(null);
  // Read while rendering the new route, before React commits it: the old screen is still in the
  // document, and so are what had the focus and its h1.
  if (navigation.current?.location !== location) {
    navigation.current = {
      location,
      focusedBefore: typeof document === 'undefined' ? null : document.activeElement,
      headingBefore: main.current?.querySelector('h1') ?? null,
    };
  }

  useEffect(() => {
    const root = main.current;
    const started = navigation.current;
    if (!root || !started) return;
    let placed: HTMLElement | null = null;
    let done = false;

    const focusLost = () => {
      const active = document.activeElement;
      return !active || active === document.body || !active.isConnected;
    };
    const settle = () => {
      if (done) return;
      const heading = root.querySelector<HTMLElement>('h1');
      if (!heading) return;
      const active = document.activeElement;
      if (placed) {
        // Ours, still there: wait on (a loading heading may yet be replaced).
        if (!focusLost()) return;
      } else if (!focusLost()) {
        const sameScreen = heading === started.headingBefore;
        const screensChoice =
          active !== started.focusedBefore && active !== root && root.contains(active);
        if (sameScreen || screensChoice) return stop();
      }
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
      placed = heading;
    };
    const stop = () => {
      done = true;
      observer.disconnect();
      window.clearTimeout(timer);
      document.removeEventListener('focusin', onFocusIn);
    };
    // The user (or the screen) moving the focus elsewhere ends the wait.
    const onFocusIn = (event: FocusEvent) => {
      if (placed && event.target !== placed) stop();
    };

    const observer = new MutationObserver(settle);
    observer.observe(root, { childList: true, subtree: true });
    const timer = window.setTimeout(stop, WAIT_MS);
    document.addEventListener('focusin', onFocusIn);
    settle();
    return stop;
  }, [location, main]);
}

/**
 * Puts the focus on the h1 of the screen `inside` is part of, for a control about to go away
 * (a bar that closes once its action is done): the focus would otherwise fall to the page body.
 */
export function focusScreenHeading(inside: Element | null): void {
  const heading = inside?.closest('.screen')?.querySelector<HTMLElement>('h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}
