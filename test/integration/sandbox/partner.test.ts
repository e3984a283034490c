import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BILLING_CITY_MAX,
  BILLING_COUNTRY_MAX,
  BILLING_LINE_MAX,
  BILLING_POSTAL_CODE_MAX,
  EMAIL_MAX,
  ErrorDetail,
  PARTNER_PHONE_MAX,
  PartnerSettings,
  URL_MAX,
  ValidationErrorBody,
  WEBHOOK_SECRET_PATTERN,
  WebhookSecret,
} from '@shared/api';
import { DEMO_PARTNER } from '@sandbox/seed/partner';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';

const START = Date.parse('2025-06-02T08:00:00.000Z');
let nowMs = START;
let sb: TestSandbox;

beforeEach(async () => {
  nowMs = START;
  sb = await startTestSandbox({}, { clock: { now: () => nowMs } });
});
afterEach(async () => {
  await sb.close();
});

async function settings(): Promise<PartnerSettings> {
  const res = await sb.api('GET', '/v1/partners/settings');
  expect(res.status).toBe(200);
  return PartnerSettings.strict().parse(res.body);
}

async function patch(body: unknown) {
  return sb.api('PATCH', '/v1/partners/settings', body);
}

async function secret(): Promise<{ status: number; secret: string | null }> {
  const res = await sb.api('GET', '/v1/partners/settings/webhook-secret');
  if (res.status !== 200) {
    expect(res.status).toBe(404);
    expect(ErrorDetail.parse(res.body).detail).toMatch(/webhookUrl/);
    return { status: res.status, secret: null };
  }
  return { status: 200, secret: WebhookSecret.strict().parse(res.body).webhookSecret };
}

describe('GET partner settings', () => {
  it('answers the demo partner in the PartnerSettings shape', async () => {
    const s = await settings();
    expect(s).toEqual({
      ...DEMO_PARTNER,
      createdAt: new Date(START).toISOString(),
      updatedAt: new Date(START).toISOString(),
    });
    expect(s.id).toBe(sb.partnerId);
    expect(s).toMatchObject({
      name: 'Evergreen Integrative Clinic',
      discountValue: 0.15,
      webhookUrl: null,
    });
  });
});

describe('PATCH partner settings', () => {
  it('changes only the given fields and moves updatedAt', async () => {
    const before = await settings();
    nowMs += 90_000;
    const res = await patch({
      primaryColor: '#000000',
      billingCity: 'Salem',
      phone: '+1 503 555 0199',
    });
    expect(res.status).toBe(200);
    const after = PartnerSettings.strict().parse(res.body);
    expect(after).toEqual({
      ...before,
      primaryColor: '#000000',
      billingCity: 'Salem',
      phone: '+1 503 555 0199',
      updatedAt: new Date(nowMs).toISOString(),
    });
    expect(after.createdAt).toBe(before.createdAt);
    expect(await settings()).toEqual(after);
  });

  it('an empty patch changes no field but updatedAt', async () => {
    const before = await settings();
    nowMs += 1_000;
    const after = PartnerSettings.parse((await patch({})).body);
    expect(after).toEqual({ ...before, updatedAt: new Date(nowMs).toISOString() });
  });

  it('null clears a field', async () => {
    const before = await settings();
    const res = await patch({ secondaryColor: null, billingAddressLine2: null, website: null });
    expect(res.status).toBe(200);
    const after = await settings();
    expect(after).toMatchObject({ secondaryColor: null, billingAddressLine2: null, website: null });
    expect(after.primaryColor).toBe(before.primaryColor);
    expect(after.billingAddressLine1).toBe(before.billingAddressLine1);
  });

  it.each([
    ['id', 'ptn_other'],
    ['name', 'Another Clinic'],
    ['discount', '50% off'],
    ['discountValue', 0.5],
    ['description', 'new description'],
    ['createdAt', '2020-01-01T00:00:00Z'],
    ['updatedAt', '2020-01-01T00:00:00Z'],
    ['favouriteColor', '#ffffff'],
  ])('rejects %s with 422 invalid at ["body", field] and changes nothing', async (field, value) => {
    const before = await settings();
    nowMs += 1_000;
    const res = await patch({ primaryColor: '#123456', [field]: value });
    expect(res.status).toBe(422);
    expect(ValidationErrorBody.parse(res.body).detail).toEqual([
      { loc: ['body', field], type: 'invalid', msg: expect.any(String) },
    ]);
    expect(await settings()).toEqual(before);
  });

  it.each([
    ['primaryColor', 'red'],
    ['primaryColor', '#12345'],
    ['primaryColor', '#1234567'],
    ['secondaryColor', '#ggg'],
    ['secondaryColor', '123456'],
    ['supportEmail', 'not-an-email'],
    ['supportEmail', 'support@'],
    ['website', 'not a url'],
    ['website', 'ftp://x.example'],
    ['webhookUrl', 'not a url'],
    ['webhookUrl', 'ftp://x.example/hooks'],
    // Not a clean absolute http(s) URL: refused, never stripped or rewritten by the URL parser.
    ['webhookUrl', 'https://hooks.clinic.example/order-status\r\n'],
    ['webhookUrl', 'https://hooks.clinic.example/a\r\nX-Injected: 1'],
    ['webhookUrl', 'https://hooks.clinic.\nexample/a'],
    ['webhookUrl', 'https://hooks.clinic.example/\ta'],
    ['webhookUrl', ' https://hooks.clinic.example/a'],
    ['webhookUrl', 'https://hooks.clinic.example/a '],
    ['webhookUrl', 'https://hooks.clinic.example/a b'],
    ['webhookUrl', 'https://hooks.clinic.example/\u0000'],
    ['webhookUrl', '\u0001https://hooks.clinic.example/a'],
    ['webhookUrl', 'https://user:secret@hooks.clinic.example/a'],
    ['webhookUrl', 'https://hooks.clinic.example/a#fragment'],
    ['webhookUrl', 'https://hooks.clinic.example\\a'],
    ['webhookUrl', 'HTTPS://hooks.clinic.example/a'],
    ['webhookUrl', 'https:hooks.clinic.example/a'],
    ['webhookUrl', '//hooks.clinic.example/a'],
    ['webhookUrl', 'https://hööks.example/a'],
    ['webhookUrl', 'https://hooks.clinic.example/<a>'],
    ['webhookUrl', 'https://hooks.clinic.example:99999/a'],
    ['webhookUrl', `https://hooks.clinic.example/${'a'.repeat(URL_MAX)}`],
    ['website', 'https://clinic.example/\r\n'],
    ['logo', 'logo.png'],
    ['logo', 'data:image/png;base64,iVBORw0KGgo='],
    ['logo', 'https://clinic.example/my logo.png'],
    // Free text: control characters and lengths.
    ['phone', '+1 503\u0000555 0199'],
    ['phone', '5'.repeat(PARTNER_PHONE_MAX + 1)],
    ['supportEmail', `${'a'.repeat(EMAIL_MAX)}@clinic.example`],
    ['billingAddressLine1', '2150 NW Lovejoy\nSuite 310'],
    ['billingAddressLine2', 'x'.repeat(BILLING_LINE_MAX + 1)],
    ['billingCity', 'c'.repeat(BILLING_CITY_MAX + 1)],
    ['billingState', 'O\tR'],
    ['billingPostalCode', '9'.repeat(BILLING_POSTAL_CODE_MAX + 1)],
    ['billingCountry', 'US\u007f'],
    ['billingCountry', 'C'.repeat(BILLING_COUNTRY_MAX + 1)],
  ])('rejects %s=%j with 422 invalid and changes nothing', async (field, value) => {
    const before = await settings();
    const res = await patch({ [field]: value });
    expect(res.status).toBe(422);
    expect(ValidationErrorBody.parse(res.body).detail).toEqual([
      { loc: ['body', field], type: 'invalid', msg: expect.any(String) },
    ]);
    expect(await settings()).toEqual(before);
    expect((await secret()).status).toBe(404);
  });

  it('rejects a value of the wrong JSON type with 422 type_error', async () => {
    const before = await settings();
    const res = await patch({ billingCity: 42 });
    expect(res.status).toBe(422);
    expect(ValidationErrorBody.parse(res.body).detail).toEqual([
      { loc: ['body', 'billingCity'], type: 'type_error', msg: expect.any(String) },
    ]);
    expect(await settings()).toEqual(before);
  });

  it.each([
    ['primaryColor', '#abc'],
    ['primaryColor', '#A1B2C3'],
    ['secondaryColor', '#a1b2c3'],
    ['supportEmail', 'help@clinic.example'],
    ['website', 'https://clinic.example/about'],
    ['website', 'http://clinic.example'],
    ['website', 'http://clinic.example:8080/clinic?lang=en&x=%20y'],
    ['website', 'http://93.184.216.34/'],
    ['logo', 'https://cdn.clinic.example/logo.png'],
    ['phone', '5'.repeat(PARTNER_PHONE_MAX)],
    ['billingCountry', 'C'.repeat(BILLING_COUNTRY_MAX)],
  ])('accepts %s=%j', async (field, value) => {
    const res = await patch({ [field]: value });
    expect(res.status).toBe(200);
    expect(PartnerSettings.parse(res.body)[field as keyof PartnerSettings]).toBe(value);
    expect((await settings())[field as keyof PartnerSettings]).toBe(value);
  });
});

/**
 * Hosts that are not public, in every spelling a URL parser takes: what the service must never
 * call (webhookUrl) nor publish (website, logo). Each is refused at its field.
 */
const NOT_PUBLIC = [
  // Loopback, in decimal, octal, hex, short and IPv4-mapped forms, and by name.
  'http://127.0.0.1:8080/hook',
  'http://2130706433/hook',
  'http://0177.0.0.1/hook',
  'http://0x7f.1/hook',
  'http://0x7f000001/hook',
  'http://127.1/hook',
  'http://127.0.0.1./hook',
  'http://[::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[::ffff:7f00:1]/hook',
  'http://localhost:3000/hook',
  'http://LOCALHOST./hook',
  'http://hooks.localhost/hook',
  // Cloud metadata: link-local, its IPv6 and its names.
  'http://169.254.169.254/latest/meta-data/',
  'http://2852039166/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://metadata/computeMetadata/v1/',
  'http://100.100.100.200/latest/meta-data/',
  // Private, carrier-grade NAT, unique-local, link-local.
  'http://10.0.0.1/hook',
  'http://012.0.0.1/hook',
  'http://172.16.5.4/hook',
  'http://192.168.1.10/hook',
  'http://0xc0a80001/hook',
  'http://100.64.0.1/hook',
  'http://[fc00::1]/hook',
  'http://[fe80::1]/hook',
  'http://printer.local/hook',
  // Unspecified, multicast, broadcast.
  'http://0.0.0.0/hook',
  'http://0/hook',
  'http://[::]/hook',
  'http://224.0.0.1/hook',
  'http://255.255.255.255/hook',
];

describe('URLs the service calls or publishes: public hosts only', () => {
  it.each(NOT_PUBLIC.flatMap((url) => ['webhookUrl', 'website', 'logo'].map((f) => [f, url])))(
    'refuses %s=%s with 422 invalid at the field, and changes nothing',
    async (field, url) => {
      const before = await settings();
      const res = await patch({ [field]: url });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(ValidationErrorBody.parse(res.body).detail).toEqual([
        { loc: ['body', field], type: 'invalid', msg: expect.any(String) },
      ]);
      expect(await settings()).toEqual(before);
      expect((await secret()).status).toBe(404);
    },
  );

  it('says in plain words what is wrong and what to do, naming no developer flag', async () => {
    for (const webhookUrl of ['http://0x7f.1:9/hook', 'http://localhost:9/hook']) {
      const res = await patch({ webhookUrl });
      const msg = ValidationErrorBody.parse(res.body).detail[0]!.msg;
      expect(msg).toMatch(/^a public host, not a loopback (address|host \(localhost\))/);
      expect(msg).toMatch(/Give the internet address of your webhook receiver/);
      expect(msg).not.toMatch(/--|flag|sandbox/);
    }
    const metadata = await patch({ webhookUrl: 'http://169.254.169.254/' });
    const msg = ValidationErrorBody.parse(metadata.body).detail[0]!.msg;
    expect(msg).toMatch(/public host.*link-local/);
    expect(msg).not.toMatch(/allow-loopback/);
  });

  it('takes public hosts by name and by address', async () => {
    for (const url of [
      'https://hooks.clinic.example/order-status',
      'http://93.184.216.34:8080/hook',
      'https://8.8.8.8/hook',
    ]) {
      const res = await patch({ webhookUrl: url });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(PartnerSettings.parse(res.body).webhookUrl).toBe(url);
    }
  });

  it('takes loopback webhooks, and only them, from a sandbox started with allowLoopbackWebhooks', async () => {
    const dev = await startTestSandbox({ allowLoopbackWebhooks: true });
    try {
      for (const url of [
        'http://127.0.0.1:9/hook',
        'http://localhost:9/hook',
        'http://2130706433:9/hook',
      ]) {
        const res = await dev.api('PATCH', '/v1/partners/settings', { webhookUrl: url });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(PartnerSettings.parse(res.body).webhookUrl).toBe(url);
      }
      for (const [field, url] of [
        ['webhookUrl', 'http://169.254.169.254/'],
        ['webhookUrl', 'http://10.0.0.1/hook'],
        ['webhookUrl', 'http://0.0.0.0:9/hook'],
        ['website', 'http://127.0.0.1:8080/'],
        ['logo', 'http://localhost/logo.png'],
      ] as const) {
        const res = await dev.api('PATCH', '/v1/partners/settings', { [field]: url });
        expect(res.status, `${field}=${url}`).toBe(422);
        expect(ValidationErrorBody.parse(res.body).detail).toEqual([
          { loc: ['body', field], type: 'invalid', msg: expect.any(String) },
        ]);
      }
    } finally {
      await dev.close();
    }
  });
});

describe('webhook secret', () => {
  it('does not exist while no webhookUrl is set: GET and rotate are 404 {detail}', async () => {
    expect(await secret()).toEqual({ status: 404, secret: null });
    const rotate = await sb.api('POST', '/v1/partners/settings/rotate-webhook-secret');
    expect(rotate.status).toBe(404);
    expect(ErrorDetail.parse(rotate.body).detail).toMatch(/webhookUrl/);
    expect(await secret()).toEqual({ status: 404, secret: null });
  });

  it('is created with a webhookUrl, has the whsec_ format, and is not in the settings body', async () => {
    const res = await patch({ webhookUrl: 'https://hooks.clinic.example/order-status' });
    expect(res.status).toBe(200);
    expect(PartnerSettings.parse(res.body).webhookUrl).toBe(
      'https://hooks.clinic.example/order-status',
    );
    const { secret: s } = await secret();
    expect(s).toMatch(WEBHOOK_SECRET_PATTERN);
    const raw = (await sb.api('GET', '/v1/partners/settings')).body as Record<string, unknown>;
    expect(raw).not.toHaveProperty('webhookSecret');
    expect(JSON.stringify(raw)).not.toContain(s!);
    expect(JSON.stringify(res.body)).not.toContain(s!);
  });

  it('is kept when the webhookUrl changes to another URL or another field changes', async () => {
    await patch({ webhookUrl: 'https://hooks.clinic.example/a' });
    const first = (await secret()).secret;
    expect(first).toMatch(WEBHOOK_SECRET_PATTERN);
    expect((await patch({ webhookUrl: 'https://hooks2.clinic.example/b' })).status).toBe(200);
    expect((await secret()).secret).toBe(first);
    expect((await patch({ phone: null })).status).toBe(200);
    expect((await secret()).secret).toBe(first);
  });

  it('rotate answers a new, different secret and GET then answers the new one', async () => {
    await patch({ webhookUrl: 'https://hooks.clinic.example/a' });
    const old = (await secret()).secret;
    const res = await sb.api('POST', '/v1/partners/settings/rotate-webhook-secret');
    expect(res.status).toBe(200);
    const rotated = WebhookSecret.strict().parse(res.body).webhookSecret;
    expect(rotated).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(rotated).not.toBe(old);
    expect((await secret()).secret).toBe(rotated);
    const again = WebhookSecret.parse(
      (await sb.api('POST', '/v1/partners/settings/rotate-webhook-secret')).body,
    );
    expect(again.webhookSecret).not.toBe(rotated);
    expect((await secret()).secret).toBe(again.webhookSecret);
  });

  it('is deleted when webhookUrl is cleared, and a later webhookUrl gets a new secret', async () => {
    await patch({ webhookUrl: 'https://hooks.clinic.example/a' });
    const old = (await secret()).secret;
    expect(old).toMatch(WEBHOOK_SECRET_PATTERN);
    const cleared = await patch({ webhookUrl: null });
    expect(cleared.status).toBe(200);
    expect(PartnerSettings.parse(cleared.body).webhookUrl).toBeNull();
    expect(await secret()).toEqual({ status: 404, secret: null });
    expect((await sb.api('POST', '/v1/partners/settings/rotate-webhook-secret')).status).toBe(404);
    await patch({ webhookUrl: 'https://hooks.clinic.example/a' });
    const fresh = (await secret()).secret;
    expect(fresh).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(fresh).not.toBe(old);
  });

  it('a webhookUrl is stored exactly as sent, port, path and query included', async () => {
    const url = 'https://hooks.clinic.example:8443/order-status?partner=ptn_demo&sig=a%2Bb';
    const res = await patch({ webhookUrl: url });
    expect(res.status).toBe(200);
    expect(PartnerSettings.parse(res.body).webhookUrl).toBe(url);
    expect((await settings()).webhookUrl).toBe(url);
    expect((await secret()).secret).toMatch(WEBHOOK_SECRET_PATTERN);
  });

  it('a webhookUrl with CR/LF is refused even when a secret exists, and the stored URL stays', async () => {
    await patch({ webhookUrl: 'https://hooks.clinic.example/a' });
    const before = await settings();
    const { secret: kept } = await secret();
    const res = await patch({ webhookUrl: 'https://hooks.clinic.example/b\r\n' });
    expect(res.status).toBe(422);
    expect(ValidationErrorBody.parse(res.body).detail).toEqual([
      { loc: ['body', 'webhookUrl'], type: 'invalid', msg: expect.any(String) },
    ]);
    expect(await settings()).toEqual(before);
    expect((await secret()).secret).toBe(kept);
  });

  it('a rejected PATCH with a webhookUrl creates no secret', async () => {
    const res = await patch({ webhookUrl: 'https://hooks.clinic.example/a', name: 'x' });
    expect(res.status).toBe(422);
    expect((await settings()).webhookUrl).toBeNull();
    expect((await secret()).status).toBe(404);
  });
});
