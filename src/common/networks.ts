import ipaddr from 'ipaddr.js';
import { isIP, isIPv6 } from 'node:net';
import { callerAddressOf } from './caller-trace';

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

// The widest network one entry may name: 1/256 of IPv4, 1/128 of IPv6.
export const PREFIX_BOUNDS = { ipv4: [8, 32], ipv6: [7, 128] } as const;
const DECIMAL_PREFIX = /^[1-9][0-9]{0,2}$|^0$/;

export interface WrittenNetwork {
  network: Network;
  // Whether the entry had a prefix: a bare address is one host.
  prefixed: boolean;
}

/**
 * An address or a CIDR as written, or undefined when it is not four-part decimal IPv4 (no leading zeros) or IPv6 that
 * both Node and ipaddr.js read, each with an optional decimal prefix no longer than the address.
 */
export function readNetwork(entry: string): WrittenNetwork | undefined {
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
  return { network: [parsed, bits], prefixed: prefix !== undefined };
}

/** Whether a caller's address (without a port a proxy appended; IPv4-mapped IPv6 read as IPv4) is in one of the networks. */
export function isInNetworks(address: string, networks: readonly Network[]): boolean {
  const caller = callerAddressOf(address);
  if (isIP(caller) === 0 || !ipaddr.isValid(caller)) return false;
  const parsed = ipaddr.process(caller);
  return networks.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits));
}
