import ipaddr from 'ipaddr.js';
import { isIP, isIPv6 } from 'node:net';
import { callerAddressOf } from '../common/caller-trace';
import { ConfigurationError } from './environment';

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

// One entry trusts at most 1/256 of IPv4 or 1/128 of IPv6: a list that trusts every address (0.0.0.0/1,128.0.0.0/1) is
// refused as TRUST_PROXY=true is in production.
const PREFIX_BOUNDS = { ipv4: [8, 32], ipv6: [7, 128] } as const;
const MAPPED_IPV4_BITS = 96;
const DECIMAL_PREFIX = /^[1-9][0-9]{0,2}$|^0$/;

const REFUSED_PRODUCTION_TRUE =
  'Invalid configuration: TRUST_PROXY=true is refused when NODE_ENV=production: it trusts every peer to name the caller in ' +
  'X-Forwarded-For, so any caller could choose the address the limits count; set the addresses or CIDRs of the load balancers';

// With a list, Fastify counts the rightmost X-Forwarded-For address that is not a listed proxy: one the caller cannot pick.
export function parseTrustProxy(value: string | undefined, isProduction: boolean): boolean | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') {
    if (isProduction) throw new ConfigurationError(REFUSED_PRODUCTION_TRUE);
    return true;
  }
  const proxies = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  proxies.forEach((proxy, index) => {
    const network = networkOf(proxy);
    if (network === undefined) {
      throw new ConfigurationError(`Invalid configuration: TRUST_PROXY entry #${index + 1} is not an IP address or a CIDR`);
    }
    const [shortest] = PREFIX_BOUNDS[network[0].kind()];
    if (network[1] < shortest) {
      throw new ConfigurationError(
        `Invalid configuration: TRUST_PROXY entry #${index + 1} (${proxy}) trusts too many addresses: a prefix is /8 to /32 for IPv4, ` +
          '/7 to /128 for IPv6 (/104 to /128 for an IPv4-mapped one)',
      );
    }
  });
  return proxies.join(',');
}

/**
 * Whether an address is one of the listed proxies (Fastify asks of each hop, from the peer leftwards): as the proxy library
 * reads a list, but a hop written with the port a proxy appended is the address without it. `list`: as parseTrustProxy
 * took it.
 */
export function trustedProxies(list: string): (address: string) => boolean {
  const networks = list.split(',').map((entry) => networkOf(entry)!);
  return (address) => {
    const hop = callerAddressOf(address);
    if (isIP(hop) === 0 || !ipaddr.isValid(hop)) return false;
    const parsed = ipaddr.process(hop);
    return networks.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits));
  };
}

/**
 * An entry as a network, or undefined when it is not four-part decimal IPv4 (no leading zeros) or IPv6 that both Node and
 * ipaddr.js read, each with an optional decimal prefix no longer than the address. An IPv4-mapped IPv6 entry is read as
 * the IPv4 network it covers: the proxy library matches IPv4 callers against it.
 */
function networkOf(entry: string): Network | undefined {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const prefix = slash === -1 ? undefined : entry.slice(slash + 1);
  if (prefix !== undefined && !DECIMAL_PREFIX.test(prefix)) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) parsed = ipaddr.IPv4.parse(address);
  else if (isIPv6(address) && ipaddr.IPv6.isValid(address)) parsed = ipaddr.IPv6.parse(address);
  else return undefined;
  const [, longest] = PREFIX_BOUNDS[parsed.kind()];
  const bits = prefix === undefined ? longest : Number(prefix);
  if (bits > longest) return undefined;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return [(parsed as ipaddr.IPv6).toIPv4Address(), bits - MAPPED_IPV4_BITS];
  }
  return [parsed, bits];
}
