import { createApiClient, type ApiClient, type ApiClientOptions } from '@main/api/client';
import { TokenManager } from '@main/connections/token-manager';
import type { SandboxOptionsInput, SandboxRuntime } from '@sandbox/index';
import { startTestSandbox, type TestSandbox } from './sandbox';

export interface Call {
  method: string;
  /** Path without the query, e.g. /v1/orders or /oauth2/token. */
  path: string;
  url: string;
}

/** A fetch that records every call it passes on (and can be given a rewrite of the answer). */
export function countingFetch(
  inner: typeof fetch = globalThis.fetch,
): typeof fetch & { calls: Call[]; count(method: string, path: string): number } {
  const calls: Call[] = [];
  const wrapped = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push({
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      url: url.href,
    });
    return inner(input, init);
  }) as typeof fetch & { calls: Call[]; count(method: string, path: string): number };
  wrapped.calls = calls;
  wrapped.count = (method, path) =>
    calls.filter((c) => c.method === method && c.path === path).length;
  return wrapped;
}

/** A fake clock; `advance` moves it. */
export function fakeClock(start = Date.parse('2030-01-15T09:00:00Z')) {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
    set(ms: number) {
      t = ms;
    },
  };
}

/** Records requested delays and resolves at once. */
export function recordingSleep(): ((ms: number) => Promise<void>) & { delays: number[] } {
  const delays: number[] = [];
  const sleep = (async (ms: number) => {
    delays.push(ms);
  }) as ((ms: number) => Promise<void>) & { delays: number[] };
  sleep.delays = delays;
  return sleep;
}

export interface ClientHarness {
  sandbox: TestSandbox;
  fetch: ReturnType<typeof countingFetch>;
  tokens: TokenManager;
  client: ApiClient;
  sleep: ReturnType<typeof recordingSleep>;
  reachability: boolean[];
}

/** A sandbox plus a TokenManager and an ApiClient over one counting fetch, with no real waiting. */
export async function startClientHarness(
  options: {
    sandbox?: SandboxOptionsInput;
    runtime?: SandboxRuntime;
    client?: Partial<ApiClientOptions>;
  } = {},
): Promise<ClientHarness> {
  const sandbox = await startTestSandbox(options.sandbox ?? {}, options.runtime ?? {});
  const fetch = countingFetch();
  const tokens = new TokenManager({
    tokenUrl: sandbox.tokenUrl,
    clientId: sandbox.clientId,
    clientSecret: async () => sandbox.clientSecret,
    fetch,
  });
  const sleep = recordingSleep();
  const reachability: boolean[] = [];
  const client = createApiClient({
    baseUrl: sandbox.baseUrl,
    tokens,
    fetch,
    sleep,
    onReachability: (r) => reachability.push(r),
    ...options.client,
  });
  return { sandbox, fetch, tokens, client, sleep, reachability };
}

/** Sets sandbox faults; throws unless the sandbox accepted them. */
export async function setFaults(
  sandbox: TestSandbox,
  faults: Record<string, unknown>,
): Promise<void> {
  const res = await sandbox.api('PUT', '/_sandbox/faults', faults);
  if (res.status !== 200)
    throw new Error(`faults rejected: ${res.status} ${JSON.stringify(res.body)}`);
}
