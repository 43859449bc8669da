import ipaddr from 'ipaddr.js';
import { isIP, isIPv4, isIPv6 } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { holdsKeyLikeRun } from './key-like';
import { printable } from './printable-text';

export const MAX_SOURCE_ADDRESS_LENGTH = 64;
export const MAX_USER_AGENT_LENGTH = 200;

const PORT = /^[0-9]{1,5}$/;

/**
 * The caller's address as every consumer reads it (the limits, the audit, key usage, the logs): request.ip as Fastify
 * computed it after TRUST_PROXY, without the port a proxy may have appended (`203.0.113.7:51234`, `[2001:db8::1]:443`).
 * Anything else is as given.
 */
export function callerAddressOf(ip: string): string {
  // Node writes a peer's IPv4 address dotted, never with a port: the cached get-client path asks too.
  if (!ip.includes(':') || isIP(ip) !== 0) return ip;
  if (ip.startsWith('[')) {
    const close = ip.indexOf(']');
    const address = ip.slice(1, close);
    const port = ip.slice(close + 1);
    return close > 0 && (port === '' || (port.startsWith(':') && PORT.test(port.slice(1)))) && isIPv6(address) ? address : ip;
  }
  const colon = ip.lastIndexOf(':');
  const address = ip.slice(0, colon);
  return PORT.test(ip.slice(colon + 1)) && isIPv4(address) ? address : ip;
}

/**
 * The caller's address (callerAddressOf) as the audit, key usage and the logs write it: IPv4-mapped IPv6 as the IPv4
 * address, other IPv6 in its short form. Anything that is not an address (what a trusted proxy forwarded as given) is
 * null: caller text, never a trace.
 */
export function sourceAddressOf(given: string | undefined): string | null {
  if (given === undefined) return null;
  const ip = callerAddressOf(given);
  const version = isIP(ip);
  if (version === 4) return ip;
  // What Node takes for IPv6 and ipaddr.js does not (an odd zone) is no address it can write either.
  if (version !== 6 || !ipaddr.IPv6.isValid(ip)) return null;
  const address = ipaddr.IPv6.parse(ip);
  const written = address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : address.toString();
  return written.length <= MAX_SOURCE_ADDRESS_LENGTH ? written : null;
}

/**
 * The User-Agent as the caller sent it, cut to 200 printable characters (never refused: any text is the caller's to
 * send); null when it holds a key-like run, which a key pasted into it would be.
 */
export function userAgentOf(headers: IncomingHttpHeaders): string | null {
  const given = headers['user-agent'];
  if (typeof given !== 'string' || given.length === 0 || holdsKeyLikeRun(given)) return null;
  return printable(given, MAX_USER_AGENT_LENGTH);
}
