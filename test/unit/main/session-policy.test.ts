import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Logger } from '@main/logging';
import { applySessionPolicy, type PolicedSession } from '@main/session-policy';
import { CONTENT_SECURITY_POLICY } from '@main/window-policy';

const PAGE = 'app://order-desk/index.html';

type Handler = (...args: any[]) => any;

/** A session as far as the policy can tell: its handlers are kept to be called by the test. */
class FakeSession extends EventEmitter {
  handlers: Record<string, Handler> = {};
  webRequest = {
    onHeadersReceived: (listener: Handler) => (this.handlers.headers = listener),
  };
  setPermissionRequestHandler(h: Handler) {
    this.handlers.request = h;
  }
  setPermissionCheckHandler(h: Handler) {
    this.handlers.check = h;
  }
  setDevicePermissionHandler(h: Handler) {
    this.handlers.device = h;
  }
}

function setUp() {
  const ses = new FakeSession();
  const lines: string[] = [];
  const log: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
    child: () => log,
  };
  applySessionPolicy(ses as unknown as PolicedSession, { location: { entryUrl: PAGE }, log });
  return { ses, lines };
}

const ours = { requestingUrl: `${PAGE}#/settings`, isMainFrame: true };

describe('applySessionPolicy', () => {
  it('puts our Content-Security-Policy on every response', () => {
    const { ses } = setUp();
    let answer: unknown;
    ses.handlers.headers!(
      { responseHeaders: { 'content-security-policy': ['default-src *'] } },
      (a: unknown) => (answer = a),
    );
    expect(answer).toEqual({
      responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });

  it('grants only clipboard writes to our page, on request and on check', () => {
    const { ses, lines } = setUp();
    const request = (permission: string, details = ours) => {
      let granted: boolean | undefined;
      ses.handlers.request!({}, permission, (g: boolean) => (granted = g), details);
      return granted;
    };
    expect(request('clipboard-sanitized-write')).toBe(true);
    expect(request('clipboard-sanitized-write', { ...ours, isMainFrame: false })).toBe(false);
    expect(
      request('clipboard-sanitized-write', {
        requestingUrl: 'https://evil.example/',
        isMainFrame: true,
      }),
    ).toBe(false);
    for (const permission of ['media', 'hid', 'usb', 'serial', 'geolocation', 'notifications'])
      expect(request(permission), permission).toBe(false);
    expect(lines.filter((l) => l.startsWith('refused the permission'))).toHaveLength(8);

    expect(ses.handlers.check!({}, 'clipboard-sanitized-write', 'app://order-desk', ours)).toBe(
      true,
    );
    expect(ses.handlers.check!({}, 'hid', 'app://order-desk', ours)).toBe(false);
    expect(ses.handlers.check!({}, 'serial', 'app://order-desk', ours)).toBe(false);
  });

  it('grants no device, whatever is asked', () => {
    const { ses } = setUp();
    expect(ses.handlers.device).toBeTypeOf('function');
    for (const deviceType of ['hid', 'usb', 'serial'])
      expect(
        ses.handlers.device!({ deviceType, origin: 'app://order-desk', device: {} }),
        deviceType,
      ).toBe(false);
  });

  it('cancels a device chooser that opens anyway', () => {
    const { ses, lines } = setUp();
    const choose = (event: 'select-hid-device' | 'select-usb-device' | 'select-serial-port') => {
      let prevented = false;
      const picked: unknown[][] = [];
      const callback = (...args: unknown[]) => picked.push(args);
      const e = { preventDefault: () => (prevented = true) };
      if (event === 'select-serial-port') ses.emit(event, e, [{ portId: 'p1' }], {}, callback);
      else ses.emit(event, e, { deviceList: [{ deviceId: 'd1' }] }, callback);
      return { prevented, picked };
    };
    expect(choose('select-hid-device')).toEqual({ prevented: true, picked: [[]] });
    expect(choose('select-usb-device')).toEqual({ prevented: true, picked: [[]] });
    expect(choose('select-serial-port')).toEqual({ prevented: true, picked: [['']] });
    expect(lines).toEqual([
      'refused a HID device',
      'refused a USB device',
      'refused a serial port',
    ]);
  });
});
