import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  isExternalHttpUrl,
  isPermissionAllowed,
  withContentSecurityPolicy,
} from '@main/window-policy';
import { repoFile } from '@test/support/repo-files';

const location = { entryUrl: 'app://order-desk/index.html' };

describe('window policy', () => {
  it('replaces any Content-Security-Policy header with ours, keeping the others', () => {
    const headers = withContentSecurityPolicy({
      'content-security-policy': ["default-src *; script-src 'unsafe-eval'"],
      'Content-Type': ['text/html'],
    });
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    expect(withContentSecurityPolicy(undefined)).toEqual({
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it('is the policy the page carries in its meta tag, plus what only a header can say', () => {
    const html = readFileSync(repoFile('src', 'renderer', 'index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBeDefined();
    const headerOnly = ["frame-ancestors 'none'"];
    expect(meta).toBe(
      CONTENT_SECURITY_POLICY.split('; ')
        .filter((d) => !headerOnly.includes(d))
        .join('; '),
    );
  });

  it('lets only http and https links out', () => {
    expect(isExternalHttpUrl('https://www.ups.com/track?tracknum=1Z')).toBe(true);
    expect(isExternalHttpUrl('http://example.com/')).toBe(true);
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'mailto:a@b.c',
      'about:blank',
      'https://',
      'not a url',
      42,
    ])
      expect(isExternalHttpUrl(url), String(url)).toBe(false);
  });

  it('grants only clipboard writes, and only to our main frame', () => {
    const ours = {
      requestingUrl: 'app://order-desk/index.html#/settings',
      isMainFrame: true,
    };
    expect(isPermissionAllowed('clipboard-sanitized-write', ours, location)).toBe(true);
    expect(
      isPermissionAllowed('clipboard-sanitized-write', { ...ours, isMainFrame: false }, location),
    ).toBe(false);
    expect(
      isPermissionAllowed(
        'clipboard-sanitized-write',
        { requestingUrl: 'https://evil.example/', isMainFrame: true },
        location,
      ),
    ).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', { isMainFrame: true }, location)).toBe(
      false,
    );
    for (const permission of [
      'clipboard-read',
      'notifications',
      'media',
      'geolocation',
      'openExternal',
    ])
      expect(isPermissionAllowed(permission, ours, location), permission).toBe(false);
  });
});
