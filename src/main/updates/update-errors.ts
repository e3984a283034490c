/**
 * An updater failure in words for people: what went wrong and what to do, without a stack trace
 * (electron-updater's messages carry one, and the whole response of a failed request).
 */
export function describeUpdateError(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    message?: unknown;
    code?: unknown;
    statusCode?: unknown;
  };
  const text = typeof e.message === 'string' ? e.message : String(error);
  const firstLine = text.split('\n', 1)[0]!.trim();
  const code = typeof e.code === 'string' ? e.code : '';
  const status =
    typeof e.statusCode === 'number'
      ? e.statusCode
      : Number(
          /\bHttpError: (\d{3})\b|\bstatus(?:Code)? (\d{3})\b/.exec(text)?.slice(1).find(Boolean),
        );
  if (code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND' || status === 404)
    return 'The update server has no update information at this address (no latest.yml): check the feed URL.';
  if (/ENOTFOUND|EAI_AGAIN|ERR_NAME_NOT_RESOLVED/.test(text))
    return 'The update server could not be found: check the feed URL and the network.';
  if (
    /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ERR_CONNECTION|ERR_INTERNET_DISCONNECTED|socket hang up/i.test(
      text,
    )
  )
    return 'The update server could not be reached. Order Desk tries again later.';
  if (/sha512 checksum mismatch|checksum/i.test(text))
    return 'The downloaded update did not match its checksum and was discarded.';
  if (/cancel/i.test(text)) return 'The download was cancelled.';
  if (status >= 400 && status < 600) return `The update server answered with HTTP ${status}.`;
  if (/ERR_UPDATER_INVALID_UPDATE_INFO|Cannot parse update info|YAMLException/i.test(text))
    return 'The update information at the feed URL cannot be read: it is not an Order Desk update feed.';
  const summary = firstLine.length > 200 ? `${firstLine.slice(0, 200)}…` : firstLine;
  return summary ? `The update failed: ${summary}` : 'The update failed.';
}
