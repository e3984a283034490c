import { ConnectionView } from '@shared/ipc';

/** Saved connections as connections.list answers them, parsed with the contract's schema. */

export const EMBEDDED = ConnectionView.parse({
  id: 'embedded',
  kind: 'embedded',
  label: 'Local sandbox',
  baseUrl: 'http://127.0.0.1:43117/v1',
  authUrl: 'http://127.0.0.1:43117',
  clientId: 'order-desk',
  isActive: true,
});

export const PARTNER = ConnectionView.parse({
  id: 'conn-sandbox',
  kind: 'partner-sandbox',
  label: 'Acme sandbox',
  baseUrl: 'https://sandbox.partner.example/v1',
  authUrl: 'https://auth.sandbox.partner.example',
  clientId: 'clinic-desk',
  isActive: false,
});

export const PRODUCTION = ConnectionView.parse({
  id: 'conn-prod',
  kind: 'production',
  label: 'Production',
  baseUrl: 'https://api.partner.example/v1',
  authUrl: 'https://auth.partner.example',
  clientId: 'clinic-desk',
  isActive: false,
  secretMissing: true,
});
