import ipaddr from 'ipaddr.js';
import { callerAddressOf } from '../common/caller-trace';

// An IPv6 host picks any of its /64's 2^64 addresses at will, so counting each alone would let it step around every limit.
export function addressKeyOf(given: string): string {
  // Node writes IPv4 callers dotted: kept as they are without parsing, since the cached get-client path asks too.
  if (!given.includes(':')) return given;
  const ip = callerAddressOf(given);
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const ipv6 = address as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  return `${ipv6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
