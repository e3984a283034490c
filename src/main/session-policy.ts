import type { Logger } from './logging';
import type { RendererLocation } from './renderer-location';
import { isPermissionAllowed, withContentSecurityPolicy } from './window-policy';

interface PermissionDetails {
  requestingUrl?: string | undefined;
  isMainFrame: boolean;
}

/** The part of Electron's Session the policy sets; a fake stands in for tests. */
export interface PolicedSession {
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders: Record<string, string[]> }) => void,
      ) => void,
    ): void;
  };
  setPermissionRequestHandler(
    handler: (
      contents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: PermissionDetails,
    ) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (
      contents: unknown,
      permission: string,
      requestingOrigin: string,
      details: PermissionDetails,
    ) => boolean,
  ): void;
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void;
  on(
    event: 'select-hid-device',
    listener: (
      event: { preventDefault(): void },
      details: unknown,
      callback: (deviceId?: string | null) => void,
    ) => void,
  ): unknown;
  on(
    event: 'select-usb-device',
    listener: (
      event: { preventDefault(): void },
      details: unknown,
      callback: (deviceId?: string) => void,
    ) => void,
  ): unknown;
  on(
    event: 'select-serial-port',
    listener: (
      event: { preventDefault(): void },
      portList: unknown,
      contents: unknown,
      callback: (portId: string) => void,
    ) => void,
  ): unknown;
}

export interface SessionPolicyDeps {
  location: RendererLocation;
  log: Logger;
}

/**
 * Everything the window's session allows, set once at start-up: our Content-Security-Policy on
 * every response (the dev server's included); only clipboard writes, only for our renderer's main
 * frame; never a device (a chooser that opens anyway is cancelled). Screen capture and Bluetooth
 * need no line: with no handler for them, Electron refuses every request.
 */
export function applySessionPolicy(ses: PolicedSession, deps: SessionPolicyDeps): void {
  const { location, log } = deps;
  const refused = (what: string) => log.warn(`refused ${what}`);

  ses.webRequest.onHeadersReceived((details, callback) =>
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) }),
  );
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const granted = isPermissionAllowed(permission, details, location);
    if (!granted) refused(`the permission ${JSON.stringify(permission)}`);
    callback(granted);
  });
  ses.setPermissionCheckHandler((_contents, permission, _origin, details) =>
    isPermissionAllowed(permission, details, location),
  );
  ses.setDevicePermissionHandler(() => false);
  ses.on('select-hid-device', (event, _details, callback) => {
    event.preventDefault();
    refused('a HID device');
    callback();
  });
  ses.on('select-usb-device', (event, _details, callback) => {
    event.preventDefault();
    refused('a USB device');
    callback();
  });
  ses.on('select-serial-port', (event, _ports, _contents, callback) => {
    event.preventDefault();
    refused('a serial port');
    callback('');
  });
}
