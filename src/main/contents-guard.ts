import type { Logger } from './logging';
import { isTrustedRendererUrl, type RendererLocation } from './renderer-location';
import { isExternalHttpUrl } from './window-policy';

/** A navigation Electron asks about (will-navigate, will-frame-navigate, will-redirect). */
export interface NavigationEvent {
  url: string;
  preventDefault(): void;
}

/** The part of Electron's WebContents the guard uses; a fake EventEmitter stands in for tests. */
export interface GuardedContents {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate', listener: (details: NavigationEvent) => void): unknown;
  on(event: 'will-frame-navigate', listener: (details: NavigationEvent) => void): unknown;
  on(event: 'will-redirect', listener: (details: NavigationEvent) => void): unknown;
  on(
    event: 'will-attach-webview',
    listener: (event: { preventDefault(): void }, webPreferences: unknown, params: unknown) => void,
  ): unknown;
  on(
    event: 'render-process-gone',
    listener: (event: unknown, details: { reason: string; exitCode: number }) => void,
  ): unknown;
}

export interface ContentsGuardDeps {
  location: RendererLocation;
  /** Opens an http(s) link in the system browser (shell.openExternal behind its own check). */
  openExternal(url: string): Promise<void>;
  log: Logger;
}

const shown = (url: string) => JSON.stringify(url.slice(0, 200));

/**
 * The one guard every web contents gets, from app.on('web-contents-created') (our window and any
 * contents that might ever be created, so none is forgotten):
 * - window.open and target=_blank are denied; an http(s) link opens in the system browser;
 * - navigating, or being redirected, anywhere but our renderer's page is refused, in the main
 *   frame (will-navigate) and in any frame (will-frame-navigate);
 * - a <webview> is never attached (the window has webviewTag off; this holds even if not);
 * - a renderer process that dies is logged.
 */
export function guardWebContents(contents: GuardedContents, deps: ContentsGuardDeps): void {
  const { location, log } = deps;

  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalHttpUrl(url))
      void deps.openExternal(url).catch((error: unknown) => log.error('open link', error));
    else log.warn(`refused to open a window for ${shown(url)}`);
    return { action: 'deny' };
  });

  const refuseUntrusted = (kind: string) => (details: NavigationEvent) => {
    if (isTrustedRendererUrl(details.url, location)) return;
    details.preventDefault();
    log.warn(`blocked ${kind} to ${shown(String(details.url))}`);
  };
  contents.on('will-navigate', refuseUntrusted('navigation'));
  contents.on('will-frame-navigate', refuseUntrusted('frame navigation'));
  contents.on('will-redirect', refuseUntrusted('redirect'));

  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log.warn('refused to attach a <webview>');
  });

  contents.on('render-process-gone', (_event, details) =>
    log.error(`renderer process gone: ${details.reason} (exit code ${details.exitCode})`),
  );
}
