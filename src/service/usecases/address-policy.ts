// Which addresses the service may connect to when it fetches a `url` for a client: public unicast only,
// plus the ranges a self-hoster names (--fetch-allow-range). The check runs inside the connection's own
// DNS lookup, so the address checked is the address connected to (no rebinding between check and connect).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Special-purpose ranges (IANA IPv4/IPv6 registries) that are never public unicast. */
const NOT_PUBLIC_V4 = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24',
  '224.0.0.0/4', '240.0.0.0/4',
];
/** Inside 2000::/3 (global unicast), the parts that are not: protocol assignments, documentation, 6to4. */
const NOT_PUBLIC_V6 = ['2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20'];

function blockListOf(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net, prefix] = cidr.split('/');
    list.addSubnet(net, Number(prefix), isIP(net) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

const notPublic = blockListOf([...NOT_PUBLIC_V4, ...NOT_PUBLIC_V6]);
const globalUnicastV6 = blockListOf(['2000::/3']);
/** IPv6 forms that carry an IPv4 address in their last 32 bits: mapped and NAT64. */
const embedsV4 = blockListOf(['::ffff:0:0/96', '64:ff9b::/96']);

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedV4(v6: string): string {
  const groups = expandV6(v6);
  const hi = parseInt(groups[6], 16);
  const lo = parseInt(groups[7], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

function expandV6(v6: string): string[] {
  let s = v6;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    s = s.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  return tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
}

/** True for an address any host on the internet could also reach: not loopback, private, link-local, multicast, reserved. */
export function isPublicUnicast(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !notPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  if (embedsV4.check(address, 'ipv6')) return isPublicUnicast(embeddedV4(address));
  return globalUnicastV6.check(address, 'ipv6') && !notPublic.check(address, 'ipv6');
}

export interface AddressPolicy {
  allows(address: string): boolean;
  /** A `lookup` for net/tls/undici connect options: resolves, then refuses unless every address is allowed. */
  lookup: LookupFunction;
}

/** Thrown (as a lookup error) for an address the policy refuses. */
export class AddressNotAllowedError extends Error {
  readonly code = 'EADDRNOTALLOWED';
}

/** The policy: public unicast, plus each CIDR of `allowRanges` (e.g. 10.0.0.0/8, fd00::/8, 127.0.0.1/32). */
export function createAddressPolicy(allowRanges: readonly string[] = []): AddressPolicy {
  for (const r of allowRanges) {
    const m = /^([^/]+)\/(\d{1,3})$/.exec(r);
    const family = m ? isIP(m[1]) : 0;
    if (!m || family === 0 || Number(m[2]) > (family === 4 ? 32 : 128)) {
      throw new Error(`fetch-allow-range: expected a CIDR range such as 10.0.0.0/8 or fd00::/8, received ${JSON.stringify(r)}`);
    }
  }
  const allowed = blockListOf(allowRanges);
  const allows = (address: string): boolean => {
    const family = isIP(address);
    if (family === 0) return false;
    if (isPublicUnicast(address)) return true;
    if (allowed.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
    return family === 6 && embedsV4.check(address, 'ipv6') && allowed.check(embeddedV4(address), 'ipv4');
  };
  const lookup = ((hostname: string, options: { all?: boolean } & Record<string, unknown>, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      if (addresses.length === 0 || !addresses.every((a) => allows(a.address))) {
        return callback(new AddressNotAllowedError(`${hostname} resolves to an address this service does not fetch from`));
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  }) as unknown as LookupFunction;
  return { allows, lookup };
}
