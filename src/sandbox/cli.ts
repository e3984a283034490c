import { parseArgs } from 'node:util';
import { z } from 'zod';
import { SandboxOptions, startSandbox } from './index';

const USAGE = `Usage: npm run sandbox -- [options]

  --port N             port to listen on (default 4010; 0 picks a free one)
  --host HOST          address to listen on (default 127.0.0.1)
  --client-id ID       client id of the demo partner (default demo-clinic)
  --client-secret S    client secret of the demo partner (default demo-secret-change-me)
  --db FILE            SQLite file to keep data in (default: in memory)
  --time-scale N       divide every delay by N: fulfillment steps, webhook retries (default 1)
  --auto-advance S     sandbox seconds between automatic fulfillment steps; 0 turns them off (default 60)
  --token-ttl S        access token lifetime in seconds (default 3600)
  --allow-loopback-webhooks
                       take webhookUrls on 127.0.0.1, ::1 or localhost too (to develop a webhook
                       receiver on this machine); by default only public hosts are called
  --help               show this help`;

const num = (flag: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, `${flag} takes a number`)
    .transform(Number)
    .optional();

const Flags = z.object({
  port: num('--port'),
  host: z.string().optional(),
  'client-id': z.string().optional(),
  'client-secret': z.string().optional(),
  db: z.string().optional(),
  'time-scale': num('--time-scale'),
  'auto-advance': num('--auto-advance'),
  'token-ttl': num('--token-ttl'),
  'allow-loopback-webhooks': z.boolean().optional(),
});

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        db: { type: 'string' },
        'time-scale': { type: 'string' },
        'auto-advance': { type: 'string' },
        'token-ttl': { type: 'string' },
        'allow-loopback-webhooks': { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const flags = Flags.safeParse(values);
  if (!flags.success) fail(flags.error.issues.map((i) => i.message).join('\n'));
  const f = flags.data;
  const options = SandboxOptions.safeParse({
    port: f.port,
    host: f.host,
    clientId: f['client-id'],
    clientSecret: f['client-secret'],
    db: f.db,
    timeScale: f['time-scale'],
    autoAdvance: f['auto-advance'],
    tokenTtl: f['token-ttl'],
    allowLoopbackWebhooks: f['allow-loopback-webhooks'],
  });
  if (!options.success) {
    fail(options.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('\n'));
  }

  const sandbox = await startSandbox(options.data, {
    log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
  const o = options.data;
  process.stdout.write(
    [
      'Order Fulfillment sandbox is ready.',
      `  Base URL:       ${sandbox.baseUrl}`,
      `  Token endpoint: ${sandbox.tokenUrl}`,
      `  OpenAPI:        ${sandbox.baseUrl}/openapi.json`,
      `  client_id:      ${sandbox.clientId}`,
      `  client_secret:  ${sandbox.clientSecret}`,
      `  Data:           ${o.db === ':memory:' ? 'in memory (gone when this process stops; --db FILE keeps it)' : o.db}`,
      `  Fulfillment:    ${o.autoAdvance > 0 ? `one step every ${o.autoAdvance / o.timeScale} s` : 'manual (POST /_sandbox/orders/{id}/advance)'}`,
      `  Webhooks:       ${o.allowLoopbackWebhooks ? 'public and loopback hosts (--allow-loopback-webhooks)' : 'public hosts only'}`,
      '',
    ].join('\n'),
  );

  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const e = error as { code?: string; message?: string };
  process.stderr.write(
    e.code === 'EADDRINUSE'
      ? `The port is already in use: choose another with --port.\n`
      : `${e.message ?? String(error)}\n`,
  );
  process.exit(1);
});
