import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorDetail } from '@shared/api';
import { fuzzRuns, replay } from '@test/support/fuzz-bodies';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';

/**
 * Request lines as bytes on a raw socket, where fetch cannot go: a CR or LF in the target (the
 * request splitting a client would send if it put unescaped input in a path) never gets an
 * answer meant for a well-formed request. Each refusal is a 400 in the service's error shape, and
 * the connection is closed after it.
 */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
  /** Whether the server closed the connection (the request did not ask it to). */
  closed: boolean;
}

/** Writes `text` on a new connection; the answer once the server closes it or stops writing. */
function raw(text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(sb.port, '127.0.0.1');
    let received = '';
    let closed = false;
    const done = () => {
      const [head = '', ...rest] = received.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? NaN);
      resolve({ status, headers: head, body: rest.join('\r\n\r\n'), closed });
    };
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('end', () => {
      closed = true;
      done();
    });
    socket.on('error', reject);
    // A keep-alive connection stays open after an answer: give up waiting for a close.
    socket.setTimeout(1_000, () => {
      socket.destroy();
      done();
    });
    socket.write(text, 'latin1');
  });
}

const request = (target: string) =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${sb.token}\r\n\r\n`;

function expectRefused(answer: RawAnswer, label: string) {
  expect(answer.status, `${label}\n${answer.headers}`).toBe(400);
  expect(ErrorDetail.parse(JSON.parse(answer.body)).detail, label).toMatch(/Malformed/);
  expect(answer.closed, label).toBe(true);
}

describe('request lines', () => {
  it('answers a well-formed request line over the raw socket', async () => {
    const answer = await raw(request('/v1/products?limit=1'));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).products).toHaveLength(1);
  });

  it('refuses a request line split by a CRLF in its target (it used to be a 200)', async () => {
    // What an injected "\r\n" in a path makes of a request line: a version-less line (which
    // Node's parser takes as HTTP/0.9), then the rest of it read as a header.
    const split = `GET /v1/products?limit=1\r\nX-Injected: 1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${sb.token}\r\n\r\n`;
    expectRefused(await raw(split), 'split request line');
    const versionless = `GET /v1/products\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${sb.token}\r\n\r\n`;
    expectRefused(await raw(versionless), 'no HTTP version');
  });

  it('refuses a version-less line on public and unknown paths too', async () => {
    expectRefused(await raw('GET /v1/openapi.json\r\nHost: 127.0.0.1\r\n\r\n'), 'public path');
    expectRefused(await raw('GET /nothing-here\r\nHost: 127.0.0.1\r\n\r\n'), 'unknown path');
    // The token endpoint answers in RFC 6749's shape, as for its other errors.
    const token = await raw('POST /oauth2/token\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n');
    expect(token.status).toBe(400);
    expect(JSON.parse(token.body)).toEqual({
      error: 'invalid_request',
      error_description: expect.stringMatching(/Malformed request line/),
    });
    expect(token.closed).toBe(true);
  });

  it.each([
    ['a CRLF', '/v1/pro\r\nducts'],
    ['a bare LF', '/v1/pro\nducts'],
    ['a bare CR', '/v1/pro\rducts'],
    ['a tab', '/v1/products\t?limit=1'],
    ['a NUL', '/v1/products\u0000'],
    ['a DEL', '/v1/products\u007f'],
  ])('refuses %s in the target with 400 {detail}', async (_what, target) => {
    expectRefused(await raw(request(target)), JSON.stringify(target));
  });

  it('takes a percent-encoded CRLF as part of the path (no such endpoint)', async () => {
    const answer = await raw(request('/v1/products%0D%0AX-Injected:%201'));
    expect(answer.status).toBe(404);
    expect(answer.headers).not.toMatch(/x-injected/i);
  });

  it('refuses CR, LF or CRLF put anywhere in a target, with anything after it', () =>
    fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/products?limit=1', '/v1/orders', '/v1/partners/settings', '/health'),
        fc.nat(),
        fc.constantFrom('\r\n', '\n', '\r'),
        fc.constantFrom('', 'X-Injected: 1', ' HTTP/1.1', 'Set-Cookie: a=b', ' '),
        async (target, at, breakText, tail) => {
          const i = at % (target.length + 1);
          const answer = await raw(
            request(`${target.slice(0, i)}${breakText}${tail}${target.slice(i)}`),
          );
          expect(answer.status, answer.headers).toBe(400);
        },
      ),
      { numRuns: fuzzRuns(60), ...replay },
    ));
});
