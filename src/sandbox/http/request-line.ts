import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Why a request's line is refused, or null for `METHOD target HTTP/1.x`. Node's parser takes a
 * line without a version as HTTP/0.9 and reads headers after it, so a target with an injected
 * CRLF turned its "version" into a header and was answered 200. No client speaks HTTP/0.9, so
 * anything but HTTP/1.x is refused, and a space, control character or DEL in the target (even
 * under --insecure-http-parser).
 */
export function malformedRequestLine(raw: {
  httpVersionMajor: number;
  url?: string | undefined;
}): string | null {
  if (raw.httpVersionMajor !== 1)
    return 'Malformed request line: it must end with the HTTP version (METHOD /path HTTP/1.1); a line break in the target splits it';
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (raw.url === undefined || /[\u0000-\u0020\u007f]/.test(raw.url))
    return 'Malformed request target: percent-encode spaces and control characters';
  return null;
}

/**
 * Answers what Node's HTTP parser refused (an invalid request line or header, a CR or LF in the
 * target, headers too large, a request too slow) in the service's one error shape, `{detail}`,
 * and closes the connection: after a malformed request nothing on it can be trusted.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection is gone already (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request did not arrive in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large']
        : [
            400,
            `Malformed HTTP request${error.code ? ` (${error.code})` : ''}: a request line is METHOD /path HTTP/1.1, with spaces, CR and LF percent-encoded in the path`,
          ];
  const body = JSON.stringify({ detail });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
