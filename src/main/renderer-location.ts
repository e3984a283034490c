import { APP_ENTRY_URL, APP_HOST, APP_SCHEME } from './app-protocol';

/** Where our renderer lives: the built page on app://, or the dev server while developing. */
export interface RendererLocation {
  /** app://order-desk/index.html: the built renderer, served by main's protocol handler. */
  entryUrl: string;
  /** ELECTRON_RENDERER_URL (electron-vite's dev server): only ever set in an unpackaged app. */
  devServerUrl?: string | undefined;
}

export interface RendererLocationDecision {
  location: RendererLocation;
  /** The page the window loads. */
  loadUrl: string;
  /** Why an ELECTRON_RENDERER_URL that was set is not used (for the log), else null. */
  ignoredDevServer: string | null;
}

const parse = (url: string): URL | null => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};

/**
 * Where the window's page comes from. ELECTRON_RENDERER_URL is electron-vite's dev server and is
 * honoured only when the app is not packaged: an installed app launched with it set (by anyone
 * who can set its environment) still loads, and trusts, only its own app:// page. Even
 * unpackaged, only an http(s) URL without credentials is taken.
 */
export function decideRendererLocation(input: {
  isPackaged: boolean;
  env: Readonly<Record<string, string | undefined>>;
}): RendererLocationDecision {
  const built: RendererLocationDecision = {
    location: { entryUrl: APP_ENTRY_URL },
    loadUrl: APP_ENTRY_URL,
    ignoredDevServer: null,
  };
  const requested = input.env.ELECTRON_RENDERER_URL;
  if (requested === undefined || requested === '') return built;
  if (input.isPackaged)
    return { ...built, ignoredDevServer: 'ELECTRON_RENDERER_URL is ignored in a packaged app' };
  const dev = parse(requested);
  if (
    !dev ||
    (dev.protocol !== 'http:' && dev.protocol !== 'https:') ||
    dev.username !== '' ||
    dev.password !== ''
  )
    return { ...built, ignoredDevServer: 'ELECTRON_RENDERER_URL is not an http(s) URL' };
  return {
    location: { entryUrl: APP_ENTRY_URL, devServerUrl: dev.href },
    loadUrl: dev.href,
    ignoredDevServer: null,
  };
}

/**
 * Whether `url` is our renderer's page: exactly app://order-desk/index.html (any #route, no
 * query, no credentials, no port), or, when there is a dev server, any page of its origin
 * (http/https only). Everything else (other files and hosts of app://, file://, lookalike names,
 * other origins, javascript:, about:blank, data:, blob:) is not.
 */
export function isTrustedRendererUrl(url: unknown, location: RendererLocation): boolean {
  if (typeof url !== 'string' || url === '') return false;
  const actual = parse(url);
  if (!actual) return false;

  if (actual.protocol === `${APP_SCHEME}:`) {
    const expected = parse(location.entryUrl);
    return (
      expected !== null &&
      expected.protocol === `${APP_SCHEME}:` &&
      expected.hostname === APP_HOST &&
      actual.hostname === expected.hostname &&
      actual.port === '' &&
      actual.pathname === expected.pathname &&
      actual.search === '' &&
      actual.username === '' &&
      actual.password === ''
    );
  }

  if (!location.devServerUrl) return false;
  const dev = parse(location.devServerUrl);
  if (!dev || (dev.protocol !== 'http:' && dev.protocol !== 'https:')) return false;
  return actual.origin === dev.origin && actual.username === '' && actual.password === '';
}

/**
 * Whether `url` belongs to our renderer's origin, at any path: app://order-desk (no port, no
 * credentials), or, when there is a dev server, its origin. What a Blob URL our page made points
 * into (`blob:app://order-desk/<uuid>`).
 */
export function hasRendererOrigin(url: unknown, location: RendererLocation): boolean {
  if (typeof url !== 'string' || url === '') return false;
  const actual = parse(url);
  if (!actual || actual.username !== '' || actual.password !== '') return false;
  if (actual.protocol === `${APP_SCHEME}:`) {
    const expected = parse(location.entryUrl);
    return (
      expected !== null &&
      expected.protocol === actual.protocol &&
      actual.hostname === APP_HOST &&
      expected.hostname === APP_HOST &&
      actual.port === ''
    );
  }
  if (!location.devServerUrl) return false;
  const dev = parse(location.devServerUrl);
  if (!dev || (dev.protocol !== 'http:' && dev.protocol !== 'https:')) return false;
  return actual.origin === dev.origin;
}
