import ipaddr from 'ipaddr.js';
import { Network, PREFIX_BOUNDS, isInNetworks, readNetwork } from '../common/networks';
import type { ScopedKeyGrant } from './client-lookup';

export const MAX_ALLOWED_SOURCES = 20;

export type AllowedSourcesReading = { sources: string[]; networks: Network[] } | { refusal: string };

/**
 * The addresses and CIDRs a scoped key may be used from, as answered (IPv4 as given, IPv6 in RFC 5952 form, a prefix as
 * given), with the networks a caller's address is matched against (isInNetworks), or the refusal naming the entry at fault.
 */
export function readAllowedSources(value: unknown): AllowedSourcesReading {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ALLOWED_SOURCES) {
    return { refusal: `allowedSources must be null or a list of 1 to ${MAX_ALLOWED_SOURCES} addresses or CIDRs` };
  }
  const sources: string[] = [];
  const networks: Network[] = [];
  for (const [index, entry] of value.entries()) {
    const name = `allowedSources[${index}]`;
    // A zone (fe80::1%eth0) names an interface of the machine that wrote it, never a caller.
    const written = typeof entry === 'string' && !entry.includes('%') ? readNetwork(entry) : undefined;
    if (written === undefined) {
      return {
        refusal: `${name} must be an IPv4 address (four decimal parts without leading zeros) or an IPv6 address, with an optional /prefix`,
      };
    }
    const [address, bits] = written.network;
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      return { refusal: `${name} is an IPv4-mapped IPv6 address: write the IPv4 address` };
    }
    const [shortest] = PREFIX_BOUNDS[address.kind()];
    if (bits < shortest) {
      return { refusal: `${name} covers too many addresses: a prefix is /8 to /32 for IPv4, /7 to /128 for IPv6` };
    }
    const networkAddress = networkAddressOf(address, bits);
    if (networkAddress.toNormalizedString() !== address.toNormalizedString()) {
      return { refusal: `${name} has bits set below its prefix /${bits}: its network is ${answeredAddress(networkAddress)}/${bits}` };
    }
    const source = written.prefixed ? `${answeredAddress(address)}/${bits}` : answeredAddress(address);
    const repeated = sources.indexOf(source);
    if (repeated !== -1) return { refusal: `${name} repeats allowedSources[${repeated}] (${source})` };
    sources.push(source);
    networks.push(written.network);
  }
  return { sources, networks };
}

function networkAddressOf(address: ipaddr.IPv4 | ipaddr.IPv6, bits: number): ipaddr.IPv4 | ipaddr.IPv6 {
  const cidr = `${address.toString()}/${bits}`;
  return address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
}

// IPv4 is four-part decimal without leading zeros, so it is answered as given.
function answeredAddress(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
}

/** The networks of sources stored as readAllowedSources answered them. */
export function networksOf(sources: readonly string[]): Network[] {
  return sources.map((source) => readNetwork(source)!.network);
}

/** Whether a key may be used from this caller's address: a root key, or a scoped key without sources, from anywhere. */
export function isAllowedSource(scopedKey: ScopedKeyGrant | null, ip: string): boolean {
  return scopedKey?.allowedSources == null || isInNetworks(ip, scopedKey.allowedSources);
}
