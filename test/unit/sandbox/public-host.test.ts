import { describe, expect, it } from 'vitest';
import { publicHostProblem } from '@sandbox/public-host';

const strict = { allowLoopback: false };
const dev = { allowLoopback: true };

/** [url, what it is]: each names a host no webhook may be sent to. */
const NOT_PUBLIC: [string, RegExp][] = [
  ['http://127.0.0.1/', /loopback/],
  ['http://127.255.255.254:8080/', /loopback/],
  ['http://2130706433/', /loopback/],
  ['http://0177.0.0.1/', /loopback/],
  ['http://0x7f.1/', /loopback/],
  ['http://0x7F000001/', /loopback/],
  ['http://127.1/', /loopback/],
  ['http://127.0.0.1./', /loopback/],
  ['http://[::1]/', /loopback/],
  ['http://[0:0:0:0:0:0:0:1]/', /loopback/],
  ['http://[::ffff:127.0.0.1]/', /loopback/],
  ['http://[::ffff:7f00:1]/', /loopback/],
  ['http://localhost/', /loopback/],
  ['http://LocalHost./', /loopback/],
  ['http://api.localhost/', /loopback/],
  ['http://169.254.169.254/', /link-local/],
  ['http://2852039166/', /link-local/],
  ['http://[::ffff:a9fe:a9fe]/', /link-local/],
  ['http://[fe80::1]/', /link-local/],
  ['http://[fd00:ec2::254]/', /unique-local/],
  ['http://[fc00::1]/', /unique-local/],
  ['http://10.0.0.1/', /private/],
  ['http://172.31.255.255/', /private/],
  ['http://192.168.0.1/', /private/],
  ['http://0xc0a80001/', /private/],
  ['http://100.64.0.1/', /carrier-grade NAT/],
  ['http://100.100.100.200/', /carrier-grade NAT/],
  ['http://0.0.0.0/', /unspecified/],
  ['http://0/', /unspecified/],
  ['http://[::]/', /unspecified/],
  ['http://224.0.0.251/', /multicast/],
  ['http://[ff02::1]/', /multicast/],
  ['http://255.255.255.255/', /broadcast/],
  ['http://192.0.0.192/', /special-purpose/],
  ['http://192.0.2.1/', /special-purpose/],
  ['http://[2001:db8::1]/', /special-purpose/],
  ['http://[64:ff9b::7f00:1]/', /special-purpose/],
  ['http://[2002:7f00:1::]/', /special-purpose/],
  ['http://[::7f00:1]/', /IPv4-compatible/],
  ['http://metadata.google.internal/', /private-use name/],
  ['http://instance-data.ec2.internal/', /private-use name/],
  ['http://metadata.goog/', /metadata/],
  ['http://metadata/', /single-label/],
  ['http://intranet./', /single-label/],
  ['http://printer.local/', /private-use name/],
  ['http://router.home.arpa/', /private-use name/],
  ['ftp://hooks.clinic.example/', /not an http/],
  ['not a url', /not a URL/],
];

describe('publicHostProblem', () => {
  it.each(NOT_PUBLIC)('refuses %s (%s)', (url, why) => {
    expect(publicHostProblem(url, strict)).toMatch(why);
  });

  it('takes public hosts, by name or address, on any port and path', () => {
    for (const url of [
      'https://hooks.clinic.example/order-status',
      'http://clinic.example:8080/a?b=c',
      'https://93.184.216.34/',
      'http://8.8.8.8:9/',
      'https://[2606:4700:4700::1111]/',
      'http://[::ffff:8.8.8.8]/',
      'https://localhost.clinic.example/',
      'https://metadata.clinic.example/',
    ])
      expect(publicHostProblem(url, strict), url).toBeNull();
  });

  it('with loopback allowed, takes every loopback spelling and still refuses the rest', () => {
    for (const [url, why] of NOT_PUBLIC)
      if (why.source === 'loopback') expect(publicHostProblem(url, dev), url).toBeNull();
      else expect(publicHostProblem(url, dev), url).toMatch(why);
  });
});
