import {
  startSandbox,
  type RunningSandbox,
  type SandboxOptionsInput,
  type SandboxRuntime,
} from '@sandbox/index';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A sandbox on a free loopback port, with a token and a small JSON client for black-box tests. */
export interface TestSandbox extends RunningSandbox {
  token: string;
  /** Calls the service with the bearer token; `path` is relative to the origin (e.g. /v1/orders). */
  api<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  fetchToken(): Promise<string>;
}

export async function startTestSandbox(
  options: SandboxOptionsInput = {},
  runtime: SandboxRuntime = {},
): Promise<TestSandbox> {
  const sandbox = await startSandbox(
    { port: 0, host: '127.0.0.1', autoAdvance: 0, ...options },
    { log: () => undefined, ...runtime },
  );
  const fetchToken = async (): Promise<string> => {
    const res = await fetch(sandbox.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
      }),
    });
    if (res.status !== 200)
      throw new Error(`token request failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const t: TestSandbox = {
    ...sandbox,
    token: await fetchToken(),
    fetchToken,
    async api(method, path, body, headers = {}) {
      const res = await fetch(`${sandbox.origin}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${t.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined
          ? {}
          : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text so the test can show it
      }
      return { status: res.status, headers: res.headers, body: parsed as any };
    },
  };
  return t;
}

/** A valid 1.0.2 create-order / protocol body: one pack product and one external product. */
export function validOrderBody(overrides: Record<string, unknown> = {}) {
  return {
    customer: {
      sourceId: 'patient-0001',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+1 503 555 0100',
      address: {
        line1: '1 Main St',
        line2: 'Suite 2',
        city: 'Portland',
        state: 'OR',
        zipCode: '97210',
      },
    },
    daysSupply: 30,
    shippingMethod: 'STANDARD',
    orderType: 'ONE_TIME',
    lineItems: [
      {
        productId: 1001,
        quantity: 2,
        packDescription: '1 capsule',
        administration: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
      },
      { productId: 1035, quantity: 1, administration: null },
    ],
    ...overrides,
  };
}
