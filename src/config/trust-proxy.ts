import ipaddr from 'ipaddr.js';
import { Network, PREFIX_BOUNDS, isInNetworks, readNetwork } from '../common/networks';
import { ConfigurationError } from './environment';

// One entry trusts at most PREFIX_BOUNDS' share: a list that trusts every address (0.0.0.0/1,128.0.0.0/1) is refused as
// TRUST_PROXY=true is in production.
const MAPPED_IPV4_BITS = 96;

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
  return (address) => isInNetworks(address, networks);
}

/**
 * An entry as a network (readNetwork), or undefined. An IPv4-mapped IPv6 entry is read as the IPv4 network it covers:
 * the proxy library matches IPv4 callers against it.
 */
function networkOf(entry: string): Network | undefined {
  const network = readNetwork(entry)?.network;
  if (network === undefined) return undefined;
  const [parsed, bits] = network;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return [(parsed as ipaddr.IPv6).toIPv4Address(), bits - MAPPED_IPV4_BITS];
  }
  return network;
}
