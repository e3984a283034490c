import { describe, expect, it } from 'vitest';
import {
  clientSecretReader,
  Connection,
  deleteConnectionSecret,
  readConnectionSecret,
  saveConnectionSecret,
  secretAccount,
  tokenUrl,
} from '@main/connections/connection';
import { MemoryCredentialStore } from '@main/connections/keychain';

const input = (baseUrl: string, authUrl = 'https://auth.example.com') => ({
  id: 'prod-1',
  kind: 'production' as const,
  label: 'Production',
  baseUrl,
  authUrl,
  clientId: 'clinic-42',
});

describe('Connection', () => {
  it('normalises the base URL to end in /v1 and the auth URL to no trailing slash', () => {
    for (const raw of [
      'https://api.example.com',
      'https://api.example.com/',
      'https://api.example.com/v1',
      ' https://API.example.com/v1/ ',
    ]) {
      expect(Connection.parse(input(raw)).baseUrl).toBe('https://api.example.com/v1');
    }
    expect(Connection.parse(input('https://x.example/api')).baseUrl).toBe(
      'https://x.example/api/v1',
    );
    const c = Connection.parse(
      input('https://api.example.com', 'https://auth.example.com/oauth2/token'),
    );
    expect(c.authUrl).toBe('https://auth.example.com');
    expect(tokenUrl(c)).toBe('https://auth.example.com/oauth2/token');
    expect(Connection.parse(c)).toEqual(c); // normalising twice changes nothing
  });

  it('refuses plain http except on loopback, credentials in URLs, and non-URLs', () => {
    const fail = (baseUrl: string) =>
      Connection.safeParse(input(baseUrl)).error?.issues.map((i) => i.message);
    expect(fail('http://api.example.com')).toEqual([
      'must use https (plain http only for a server on this computer)',
    ]);
    expect(fail('https://user:pw@api.example.com')).toEqual([
      'must not contain a user name or password',
    ]);
    expect(fail('ftp://api.example.com')).toEqual(['an absolute http or https URL']);
    expect(fail('https://api.example.com?key=1')).toEqual(['must not contain a query or fragment']);
    expect(Connection.parse(input('http://127.0.0.1:4010')).baseUrl).toBe(
      'http://127.0.0.1:4010/v1',
    );
    expect(Connection.parse(input('http://localhost:4010/v1')).baseUrl).toBe(
      'http://localhost:4010/v1',
    );
  });

  it('has no field for the secret', () => {
    const parsed = Connection.parse({ ...input('https://api.example.com'), clientSecret: 'shh' });
    expect(JSON.stringify(parsed)).not.toContain('shh');
  });
});

describe('connection secrets', () => {
  it('live under an account derived from connection id and client id', async () => {
    const store = new MemoryCredentialStore();
    const c = Connection.parse(input('https://api.example.com'));
    expect(secretAccount(c)).toBe('client-secret:prod-1:clinic-42');
    expect(await readConnectionSecret(store, c)).toBeNull();
    await saveConnectionSecret(store, c, 's3cret');
    expect(await readConnectionSecret(store, c)).toBe('s3cret');
    expect(await store.get('client-secret:prod-1:clinic-42')).toBe('s3cret');
    expect(await readConnectionSecret(store, { ...c, clientId: 'other' })).toBeNull();
    await expect(saveConnectionSecret(store, c, '')).rejects.toThrow(/empty/);
    expect(await deleteConnectionSecret(store, c)).toBe(true);
    expect(await deleteConnectionSecret(store, c)).toBe(false);
  });

  it('a missing secret is an unauthorized error naming the connection', async () => {
    const c = Connection.parse(input('https://api.example.com'));
    await expect(clientSecretReader(new MemoryCredentialStore(), c)()).rejects.toMatchObject({
      kind: 'unauthorized',
      reason: 'missing-secret',
      message: expect.stringContaining('"Production"'),
    });
  });
});
