import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PartnerSettings, type PartnerSettingsPatch } from '@shared/api';
import { isoAt } from '../clock';
import type { Db } from './db';
import { prepareCached } from './page';

export type PartnerSeed = Omit<PartnerSettings, 'createdAt' | 'updatedAt'>;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;
export const newClientSecret = (): string => `sbx_${randomBytes(24).toString('base64url')}`;

/**
 * Partners, their API clients, issued tokens, and webhook secrets. Settings and token lookups
 * are on every request's path, so parsed settings and known tokens are kept in memory; every
 * write goes through this class and keeps them in step.
 */
export class PartnerStore {
  private readonly settingsCache = new Map<string, PartnerSettings>();
  private readonly tokenCache = new Map<string, { partnerId: string; expiresAt: number }>();

  constructor(private readonly db: Db) {}

  /** Creates the partner if absent and (re)sets the client's secret, so CLI credentials always work. */
  ensurePartner(seed: PartnerSeed, clientId: string, clientSecret: string, nowMs: number): void {
    this.db.transaction(() => {
      const exists = prepareCached(this.db, 'SELECT 1 FROM partners WHERE id = ?').get(seed.id);
      if (!exists) {
        const settings = PartnerSettings.parse({
          ...seed,
          createdAt: isoAt(nowMs),
          updatedAt: isoAt(nowMs),
        });
        prepareCached(
          this.db,
          'INSERT INTO partners (id, body, webhook_secret) VALUES (?, ?, ?)',
        ).run(seed.id, JSON.stringify(settings), settings.webhookUrl ? newWebhookSecret() : null);
      }
      prepareCached(
        this.db,
        `INSERT INTO clients (client_id, secret_hash, partner_id) VALUES (?, ?, ?)
         ON CONFLICT(client_id) DO UPDATE SET secret_hash = excluded.secret_hash, partner_id = excluded.partner_id`,
      ).run(clientId, sha256(clientSecret).toString('hex'), seed.id);
    })();
  }

  /** The partner of a client whose secret matches, or null. */
  authenticateClient(clientId: string, clientSecret: string): string | null {
    const row = prepareCached(
      this.db,
      'SELECT secret_hash, partner_id FROM clients WHERE client_id = ?',
    ).get(clientId) as { secret_hash: string; partner_id: string } | undefined;
    const given = sha256(clientSecret);
    const expected = row ? Buffer.from(row.secret_hash, 'hex') : sha256('');
    const same = timingSafeEqual(given, expected);
    return row && same ? row.partner_id : null;
  }

  issueToken(partnerId: string, ttlSeconds: number, nowMs: number): string {
    const token = randomBytes(32).toString('base64url');
    prepareCached(this.db, 'DELETE FROM tokens WHERE expires_at <= ?').run(nowMs);
    prepareCached(
      this.db,
      'INSERT INTO tokens (token_hash, partner_id, expires_at) VALUES (?, ?, ?)',
    ).run(sha256(token).toString('hex'), partnerId, nowMs + ttlSeconds * 1000);
    return token;
  }

  /** The partner a live token belongs to, or null for an unknown or expired token. */
  partnerForToken(token: string, nowMs: number): string | null {
    // Keyed by the token itself (memory only): a hit costs no hash; the table holds only hashes.
    let known = this.tokenCache.get(token);
    if (!known) {
      const hash = sha256(token).toString('hex');
      const row = prepareCached(
        this.db,
        'SELECT partner_id, expires_at FROM tokens WHERE token_hash = ?',
      ).get(hash) as { partner_id: string; expires_at: number } | undefined;
      if (!row) return null;
      known = { partnerId: row.partner_id, expiresAt: row.expires_at };
      if (this.tokenCache.size >= 10_000) this.tokenCache.clear();
      this.tokenCache.set(token, known);
    }
    if (known.expiresAt > nowMs) return known.partnerId;
    this.tokenCache.delete(token);
    return null;
  }

  settings(partnerId: string): PartnerSettings {
    const cached = this.settingsCache.get(partnerId);
    if (cached) return cached;
    const row = prepareCached(this.db, 'SELECT body FROM partners WHERE id = ?').get(partnerId) as
      { body: string } | undefined;
    if (!row) throw new Error(`partner ${partnerId} does not exist`);
    const settings = PartnerSettings.parse(JSON.parse(row.body));
    this.settingsCache.set(partnerId, settings);
    return settings;
  }

  /**
   * Changes only the given fields. Setting a webhookUrl where there was none creates the webhook
   * secret; clearing it deletes the secret (docs/decisions.md).
   */
  patchSettings(partnerId: string, patch: PartnerSettingsPatch, nowMs: number): PartnerSettings {
    return this.db.transaction(() => {
      const current = this.settings(partnerId);
      const next = PartnerSettings.parse({ ...current, ...patch, updatedAt: isoAt(nowMs) });
      const secret = this.webhookSecret(partnerId);
      const nextSecret = next.webhookUrl ? (secret ?? newWebhookSecret()) : null;
      prepareCached(this.db, 'UPDATE partners SET body = ?, webhook_secret = ? WHERE id = ?').run(
        JSON.stringify(next),
        nextSecret,
        partnerId,
      );
      this.settingsCache.set(partnerId, next);
      return next;
    })();
  }

  webhookSecret(partnerId: string): string | null {
    const row = prepareCached(this.db, 'SELECT webhook_secret FROM partners WHERE id = ?').get(
      partnerId,
    ) as { webhook_secret: string | null } | undefined;
    return row?.webhook_secret ?? null;
  }

  /**
   * Sandbox control: gives the partner's API client `clientId` a new secret (the old one is
   * refused at once) and revokes every access token of the partner, as a partner portal does when
   * a secret is rotated. Null when the client is not the partner's.
   */
  rotateClientSecret(partnerId: string, clientId: string, secret: string): boolean {
    return this.db.transaction(() => {
      const changed = prepareCached(
        this.db,
        'UPDATE clients SET secret_hash = ? WHERE client_id = ? AND partner_id = ?',
      ).run(sha256(secret).toString('hex'), clientId, partnerId).changes;
      if (changed === 0) return false;
      prepareCached(this.db, 'DELETE FROM tokens WHERE partner_id = ?').run(partnerId);
      for (const [token, known] of this.tokenCache) {
        if (known.partnerId === partnerId) this.tokenCache.delete(token);
      }
      return true;
    })();
  }

  /** A new secret that replaces the old one at once; null when no webhookUrl is set. */
  rotateWebhookSecret(partnerId: string): string | null {
    return this.db.transaction(() => {
      if (this.webhookSecret(partnerId) === null) return null;
      const secret = newWebhookSecret();
      prepareCached(this.db, 'UPDATE partners SET webhook_secret = ? WHERE id = ?').run(
        secret,
        partnerId,
      );
      return secret;
    })();
  }
}
