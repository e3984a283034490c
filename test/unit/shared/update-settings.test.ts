import { describe, expect, it } from 'vitest';
import { UpdateSettings } from '@shared/update-views';

const issues = (value: unknown) => {
  const result = UpdateSettings.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
};

describe('update settings', () => {
  it('accepts off with no feed, and on with an https feed or http on this computer', () => {
    for (const value of [
      { enabled: false, feedUrl: null },
      { enabled: false, feedUrl: 'https://updates.example.com/order-desk/' },
      { enabled: true, feedUrl: 'https://updates.example.com/order-desk/' },
      { enabled: true, feedUrl: 'http://127.0.0.1:8080/feed/' },
      { enabled: true, feedUrl: 'http://localhost:5000' },
      { enabled: true, feedUrl: 'https://updates.example.com/feed?channel=stable' },
    ])
      expect(issues(value), JSON.stringify(value)).toEqual([]);
    expect(
      UpdateSettings.parse({ enabled: true, feedUrl: '  https://u.example.com/  ' }).feedUrl,
    ).toBe('https://u.example.com/');
  });

  it('refuses a feed that is not https, carries credentials or a fragment, or is too long', () => {
    const on = (feedUrl: string) => issues({ enabled: true, feedUrl });
    expect(on('http://updates.example.com/')).toEqual([
      ['feedUrl', 'an https URL (plain http only for 127.0.0.1, when testing)'],
    ]);
    expect(on('ftp://updates.example.com/')[0]![0]).toBe('feedUrl');
    expect(on('file:///tmp/feed')[0]![0]).toBe('feedUrl');
    expect(on('http://10.0.0.5/')[0]![1]).toMatch(/https URL/);
    expect(on('not a url')).toEqual([
      ['feedUrl', 'an https URL such as https://updates.example.com/'],
    ]);
    expect(on('https://user:pass@updates.example.com/')).toEqual([
      ['feedUrl', 'no user name or password in the address: the update feed is public'],
    ]);
    expect(on('https://updates.example.com/#x')).toEqual([
      ['feedUrl', 'no #fragment in the address'],
    ]);
    expect(on(`https://u.example.com/${'a'.repeat(2000)}`)).toEqual([
      ['feedUrl', 'at most 2000 characters'],
    ]);
    expect(on('   ')).toEqual([['feedUrl', 'required']]);
  });

  it('requires a feed URL to turn updates on', () => {
    expect(issues({ enabled: true, feedUrl: null })).toEqual([
      ['feedUrl', 'required to turn updates on'],
    ]);
    expect(issues({ enabled: 'yes', feedUrl: null })[0]![0]).toBe('enabled');
  });
});
