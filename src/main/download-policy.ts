import type { Logger } from './logging';
import {
  hasRendererOrigin,
  isTrustedRendererUrl,
  type RendererLocation,
} from './renderer-location';

/** The part of Electron's DownloadItem the policy reads. */
export interface DownloadRequest {
  getURL(): string;
  getURLChain(): string[];
}

/** The part of Electron's WebContents the policy reads: the page that started the download. */
export interface DownloadingContents {
  getURL(): string;
}

/** The part of Electron's Session the policy sets; a fake EventEmitter stands in for tests. */
export interface DownloadingSession {
  on(
    event: 'will-download',
    listener: (
      event: { preventDefault(): void },
      item: DownloadRequest,
      contents: DownloadingContents | null | undefined,
    ) => void,
  ): unknown;
}

export interface DownloadPolicyDeps {
  location: RendererLocation;
  log: Logger;
}

/** A download as the policy judges it. */
export interface DownloadFacts {
  url: string;
  /** Every URL the download went through (redirects); just `url` when there were none. */
  urlChain: readonly string[];
  /** The URL of the page that started it; null when no web contents did. */
  pageUrl: string | null;
}

/**
 * Whether a download is one of the app's own saves. The page hands the user a file (a CSV export,
 * the CSV template) as a Blob URL it created and a click on an `<a download>` (`saveTextFile` in
 * the renderer's lib/save-file.ts). So a save is exactly: a `blob:` URL pointing into our
 * renderer's origin (`blob:app://order-desk/<uuid>`, or the dev server's origin unpackaged), not
 * redirected (a Blob URL never is), started by a web contents that shows our page. Anything else
 * (an http(s) or data: URL, a Blob of another origin, a download without a page or from a page
 * that is not ours) is not.
 */
export function isOwnSave(download: DownloadFacts, location: RendererLocation): boolean {
  const { url, urlChain, pageUrl } = download;
  if (typeof url !== 'string' || !url.startsWith('blob:')) return false;
  if (urlChain.length > 1 || urlChain.some((link) => link !== url)) return false;
  if (!hasRendererOrigin(url.slice('blob:'.length), location)) return false;
  return pageUrl !== null && isTrustedRendererUrl(pageUrl, location);
}

const shown = (url: string) => JSON.stringify(url.slice(0, 200));

function readFacts(
  item: DownloadRequest,
  contents: DownloadingContents | null | undefined,
): DownloadFacts | null {
  try {
    return {
      url: item.getURL(),
      urlChain: item.getURLChain(),
      pageUrl: contents?.getURL() ?? null,
    };
  } catch {
    return null; // A contents destroyed meanwhile: nothing vouches for the download.
  }
}

/**
 * The session's will-download handler: the app's own saves go ahead (Electron asks the user where
 * to save them, as it does without a handler); every other download is cancelled before anything
 * is written, and logged.
 */
export function guardDownloads(ses: DownloadingSession, deps: DownloadPolicyDeps): void {
  const { location, log } = deps;
  ses.on('will-download', (event, item, contents) => {
    const facts = readFacts(item, contents);
    if (facts && isOwnSave(facts, location)) return;
    event.preventDefault();
    log.warn(`cancelled a download of ${facts ? shown(String(facts.url)) : 'an unknown URL'}`);
  });
}
