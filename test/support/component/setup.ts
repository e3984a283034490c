import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { takeViolations, uninstallOrderDesk } from './fake-order-desk';

/**
 * Shared setup of every component test (vitest.config.ts, project 'component'):
 * - a console.error fails the test: React reports an update outside act(), a missing key or a
 *   failed render there, and a test that passes beside such a report proves less than it says;
 * - a call outside the contract, or one the test gave no answer for, fails the test;
 * - each test starts from an empty page and without window.orderDesk (installOrderDesk gives it).
 */

/**
 * React warns of an update outside act() only where this is set. Testing Library sets it from
 * global hooks (beforeAll), which this project does not turn on (vitest `globals` is off), so it
 * is set here, before any test renders; its waitFor/findBy clear it while they wait, as they should.
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let errors: string[] = [];

beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args.map(String).join(' '));
  });
});

afterEach(() => {
  // Unmounted first: what the unmount itself reports counts too.
  cleanup();
  const violations = takeViolations();
  uninstallOrderDesk();
  vi.restoreAllMocks();
  // Back to no route without a hashchange event (one from `location.hash =` comes a task later,
  // into whatever the next test has mounted).
  window.history.replaceState(null, '', window.location.pathname);
  // The first of each in the message: the summary line names what went wrong.
  expect(errors, `console.error during the test: ${errors[0]}`).toEqual([]);
  expect(violations, `a call outside the IPC contract: ${violations[0]}`).toEqual([]);
});

/**
 * jsdom lays nothing out, so every element is 0 px tall and a virtualised list
 * (@tanstack/react-virtual reads its scroller's clientHeight) would show no row. A scroller is
 * given a window's size; the rows stay 0 px, so every row of a test's short list is in view.
 */
const SCROLLER_SIZE = 800;
const isScroller = (element: Element) => /(^|[\s-])scroller\b/.test(element.className);
for (const side of ['clientHeight', 'clientWidth'] as const) {
  const plain = Object.getOwnPropertyDescriptor(Element.prototype, side);
  Object.defineProperty(HTMLElement.prototype, side, {
    configurable: true,
    get(this: HTMLElement) {
      if (isScroller(this)) return SCROLLER_SIZE;
      return (plain?.get?.call(this) as number | undefined) ?? 0;
    },
  });
}

/**
 * jsdom has <dialog> but not its methods: showModal and close only open and close it here (no
 * top layer, no inert page behind), which is what components/Dialog.tsx asks of them. Escape's
 * `cancel` event is not simulated; a test closes a dialog with its buttons.
 */
if (typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}

/**
 * jsdom has no matchMedia, which the theme follows ("system": the OS's light or dark): a system
 * in light mode that never changes.
 */
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }) as MediaQueryList;
