import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

export interface HostPolicy {
  /** Take loopback hosts too (127.0.0.0/8, ::1, localhost): the sandbox's test flag, webhooks only. */
  allowLoopback: boolean;
}

/**
 * Names that never lead to a public host: the loopback names of RFC 6761 (`localhost` and under
 * it), mDNS (`.local`), the private-use `.internal` (cloud metadata: metadata.google.internal,
 * instance-data.ec2.internal), `.home.arpa` and `.localdomain`; and metadata.goog, another name of
 * Google Cloud's metadata server.
 */
const PRIVATE_SUFFIXES = ['.local', '.internal', '.home.arpa', '.localdomain'];
const METADATA_NAMES = new Set(['metadata.goog']);
const isLoopbackName = (name: string) => name === 'localhost' || name.endsWith('.localhost');

/** IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291): never a public destination. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Why the service may not call, or publish, `url` (a clean absolute http(s) URL), or null when
 * its host is public. The host is read as the WHATWG URL parser reads it (what fetch connects
 * to), then classified by ipaddr.js: only plain unicast is public; a name is public unless it is
 * a single label or a private-use name; DNS is not looked up. The classes refused and why:
 * docs/decisions.md, "Public hosts for webhooks".
 */
export function publicHostProblem(url: string, policy: HostPolicy): string | null {
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'not an http(s) URL';
    host = parsed.hostname;
  } catch {
    return 'not a URL';
  }
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0) return addressProblem(literal, policy);

  const name = host.replace(/\.$/, '');
  if (isLoopbackName(name)) return policy.allowLoopback ? null : 'a loopback host (localhost)';
  if (!name.includes('.')) return 'a single-label name, which only an internal network resolves';
  if (METADATA_NAMES.has(name)) return 'a cloud metadata name';
  if (PRIVATE_SUFFIXES.some((suffix) => name.endsWith(suffix)))
    return 'a private-use name, which only an internal network resolves';
  return null;
}

const RANGE_NAMES: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique-local) address',
  carrierGradeNat: 'a carrier-grade NAT address',
  linkLocal: 'a link-local address (cloud metadata lives there)',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

function addressProblem(literal: string, policy: HostPolicy): string | null {
  // process(): an IPv4-mapped IPv6 address becomes the IPv4 address it carries.
  const address = ipaddr.process(literal);
  const range = address.range();
  if (range === 'loopback' && policy.allowLoopback) return null;
  if (range !== 'unicast') return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
  if (address.kind() === 'ipv6' && address.match(IPV4_COMPATIBLE))
    return 'an IPv4-compatible IPv6 address';
  return null;
}
