import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookPayload } from '@shared/api';

/** One request as the receiver saw it: headers and the raw body bytes as text. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered, or null while it leaves the request hanging. */
  answered: number | null;
}

/** What to answer: a status, or 'hang' to never answer (the sender's timeout must fire). */
export type Answer = number | 'hang';
/** Decides the answer of each request; `index` counts every request received, from 0. */
export type Responder = (request: ReceivedRequest, index: number) => Answer;

/** A real HTTP webhook receiver on 127.0.0.1 that records what it gets. */
export interface WebhookReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hooks/order-status'): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  let responder: Responder = () => 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered: null,
      };
      const index = requests.length;
      requests.push(received);
      const answer = responder(received, index);
      if (answer === 'hang') return;
      received.answered = answer;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    requests,
    respond(next) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const header = (r: ReceivedRequest, name: string): string => {
  const value = r.headers[name];
  if (typeof value !== 'string') throw new Error(`webhook request without a single ${name} header`);
  return value;
};

/** The Standard Webhooks headers of a received request. */
export const webhookHeaders = (r: ReceivedRequest) => ({
  id: header(r, 'webhook-id'),
  timestamp: header(r, 'webhook-timestamp'),
  signature: header(r, 'webhook-signature'),
});

/**
 * The Standard Webhooks signature computed here, independently of the sandbox's signing code:
 * HMAC-SHA256 keyed with the base64-decoded part after `whsec_`, over "id.timestamp.body".
 */
export function expectedSignature(
  secret: string,
  id: string,
  timestamp: string,
  body: string,
): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Whether one of the request's space-separated signatures is the one `secret` gives. */
export function signedWith(secret: string, r: ReceivedRequest): boolean {
  const { id, timestamp, signature } = webhookHeaders(r);
  const expected = expectedSignature(secret, id, timestamp, r.body);
  return signature.split(' ').includes(expected);
}

/** The parsed webhook body: throws when it is not the spec's payload. */
export const payloadOf = (r: ReceivedRequest): WebhookPayload =>
  WebhookPayload.parse(JSON.parse(r.body));
