import { z } from 'zod';
import { DEMO_CLIENT_ID, DEMO_CLIENT_SECRET } from './seed/partner';

/** Options of the sandbox service, shared by the CLI and startSandbox(). */
export const SandboxOptions = z.object({
  port: z.int().min(0).max(65_535).default(4010),
  host: z.string().min(1).default('127.0.0.1'),
  clientId: z.string().min(1).default(DEMO_CLIENT_ID),
  clientSecret: z.string().min(1).default(DEMO_CLIENT_SECRET),
  /** SQLite file; ':memory:' keeps everything in memory. */
  db: z.string().min(1).default(':memory:'),
  /** Divides every delay: fulfillment steps, webhook retries and attempt timeouts. */
  timeScale: z.number().positive().default(1),
  /** Sandbox seconds between automatic fulfillment steps; 0 turns them off. */
  autoAdvance: z.number().min(0).default(60),
  /** Lifetime of an access token in seconds. */
  tokenTtl: z.int().min(1).default(3600),
  /**
   * Take webhook URLs on loopback hosts (127.0.0.0/8, ::1, localhost) too: for tests and for
   * developing a webhook receiver on one machine. Off by default: the service then calls only
   * public hosts (src/sandbox/public-host.ts).
   */
  allowLoopbackWebhooks: z.boolean().default(false),
});
export type SandboxOptionsInput = z.input<typeof SandboxOptions>;
export type SandboxOptions = z.output<typeof SandboxOptions>;
