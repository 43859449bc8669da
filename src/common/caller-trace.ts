import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { printable } from './printable-text';

export const MAX_SOURCE_ADDRESS_LENGTH = 64;
export const MAX_USER_AGENT_LENGTH = 200;

/**
 * The caller's address as Fastify computed it (request.ip, after TRUST_PROXY), written once for the audit, key usage and
 * the logs: IPv4-mapped IPv6 as the IPv4 address, other IPv6 in its short form. Anything that is not an address (what a
 * trusted proxy forwarded as given) is null: caller text, never a trace.
 */
export function sourceAddressOf(ip: string | undefined): string | null {
  if (ip === undefined) return null;
  const version = isIP(ip);
  if (version === 4) return ip;
  // What Node takes for IPv6 and ipaddr.js does not (an odd zone) is no address it can write either.
  if (version !== 6 || !ipaddr.IPv6.isValid(ip)) return null;
  const address = ipaddr.IPv6.parse(ip);
  const written = address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : address.toString();
  return written.length <= MAX_SOURCE_ADDRESS_LENGTH ? written : null;
}

/** The User-Agent as the caller sent it, cut to 200 printable characters (never refused: any text is the caller's to send). */
export function userAgentOf(headers: IncomingHttpHeaders): string | null {
  const given = headers['user-agent'];
  return typeof given === 'string' && given.length > 0 ? printable(given, MAX_USER_AGENT_LENGTH) : null;
}
