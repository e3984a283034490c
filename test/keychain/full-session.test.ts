import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Core } from '@main/core';
import { readConnectionSecret } from '@main/connections/connection';
import { KeytarCredentialStore } from '@main/connections/keychain';
import { EMBEDDED_CLIENT_ID, EMBEDDED_CONNECTION_ID } from '@main/embedded-sandbox';
import { createFileLogger } from '@main/logging';
import { validOrderBody } from '@test/support/sandbox';
import { waitFor } from '@test/support/wait';
import { TEST_KEY } from '@test/support/store-key';

/**
 * A full session on the real keychain: connect to the embedded sandbox, draft and sync
 * protocols, submit a batch, poll, cancel, set a webhook URL and read and rotate its secret.
 * Afterwards no secret seen on the wire may appear in the app's database files or its logs.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every credential that crossed the wire: client secrets sent, access tokens issued. */
function recordingFetch(seen: Set<string>): typeof fetch {
  return async (input, init) => {
    const auth = new Headers(init?.headers).get('authorization');
    if (auth?.startsWith('Bearer ')) seen.add(auth.slice('Bearer '.length));
    if (typeof init?.body === 'string' || init?.body instanceof URLSearchParams) {
      const form = new URLSearchParams(String(init.body));
      const secret = form.get('client_secret');
      if (secret) seen.add(secret);
    }
    const response = await fetch(input, init);
    if (String(input).endsWith('/oauth2/token') && response.ok) {
      const body = (await response.clone().json()) as { access_token?: string };
      if (body.access_token) seen.add(body.access_token);
    }
    return response;
  };
}

describe('a full session', () => {
  it('leaves no secret in the database files or the logs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'od-session-'));
    dirs.push(dataDir);
    const logDir = join(dataDir, 'logs');
    const log = createFileLogger({ dir: logDir, level: 'debug' });
    const credentials = new KeytarCredentialStore(`Order Desk test ${randomUUID()}`);
    const seen = new Set<string>();
    const core = await Core.open({
      key: TEST_KEY,
      dataDir,
      credentials,
      log,
      redactor: log.redactor,
      fetch: recordingFetch(seen),
    });

    await core.useEmbedded();
    const session = core.session!;
    expect(session.connection.kind).toBe('embedded');

    const { lineItems, ...rest } = validOrderBody();
    const ids = [1, 2, 3].map(
      (n) =>
        session.protocols.create({
          ...rest,
          customer: { ...rest.customer, sourceId: `patient-${n}` },
          lineItems,
        } as never).localId,
    );
    // The session's first background sync may already be running: wait until the drafts are pushed.
    await waitFor(
      async () => {
        await session.sync.syncNow();
        const c = core.store.jobs.counts({ kind: 'protocol' });
        return c.queued + c.sending + c.in_doubt + c.rejected === 0;
      },
      20_000,
      'the protocol changes to be sent',
    );
    expect((await session.client.listProtocols({ limit: 100 })).protocols).toHaveLength(3);

    const batchId = session.bulk.submit(ids);
    const progress = await session.bulk.settled(batchId);
    expect(progress).toMatchObject({ total: 3, created: 3, rejected: 0, inDoubt: 0 });

    await session.poller.pollOnce();
    const [first] = core.store.orders.list({ limit: 10 });
    const cancelled = await session.orders.cancelOrder(first!.id);
    expect(cancelled.ok).toBe(true);

    await session.client.updatePartnerSettings({
      webhookUrl: 'https://hooks.clinic.example/order-desk',
    });
    const webhookSecret = await session.client.getWebhookSecret();
    const rotated = await session.client.rotateWebhookSecret();
    seen.add(webhookSecret!);
    seen.add(rotated);

    // A failure whose message could carry a credential, logged as the app would.
    log.error(
      'wrong credentials',
      await core
        .testConnection(
          {
            kind: 'partner-sandbox',
            label: 'x',
            baseUrl: session.connection.baseUrl,
            authUrl: session.connection.authUrl,
            clientId: EMBEDDED_CLIENT_ID,
          },
          'wrong-secret-value-123',
        )
        .catch((e: unknown) => e),
    );
    seen.add('wrong-secret-value-123');

    const clientSecret = await readConnectionSecret(credentials, {
      id: EMBEDDED_CONNECTION_ID,
      clientId: EMBEDDED_CLIENT_ID,
    });
    expect(clientSecret).toBeTruthy();
    expect(seen).toContain(clientSecret);
    log.info(`session ended with ${seen.size} credentials seen`);

    await core.close();
    await log.close();

    // The app store and every connection's store, with their side files.
    const dbFiles = [
      ...readdirSync(dataDir)
        .filter((f) => f.startsWith('app.db'))
        .map((f) => join(dataDir, f)),
      ...readdirSync(join(dataDir, 'connections')).map((f) => join(dataDir, 'connections', f)),
    ];
    expect(dbFiles).toContain(join(dataDir, 'app.db'));
    expect(dbFiles).toContain(join(dataDir, 'connections', 'embedded.db'));
    const haystacks = [
      ...dbFiles.map((f) => readFileSync(f).toString('latin1')),
      ...readdirSync(logDir).map((f) => readFileSync(join(logDir, f), 'utf8')),
    ];
    const logText = readdirSync(logDir)
      .map((f) => readFileSync(join(logDir, f), 'utf8'))
      .join('');
    expect(logText).toMatch(/sync|bulk|poller/);
    expect(seen.size).toBeGreaterThanOrEqual(4);
    for (const secret of seen) {
      expect(secret.length).toBeGreaterThanOrEqual(8);
      for (const text of haystacks) expect(text.includes(secret)).toBe(false);
    }
  }, 60_000);
});
