import { ValidationOptions, isURL, registerDecorator } from 'class-validator';
import ipaddr from 'ipaddr.js';
import { isNeverPublicName } from './never-public-names';

export function parseHttpUrl(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

const FOUR_DECIMALS = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

// Also on the text: WHATWG drops an empty one (`https://@host`), and other parsers split differently.
export function hasUserInfo(text: string): boolean {
  const url = parseHttpUrl(text);
  if (url && (url.username !== '' || url.password !== '')) return true;
  return /^[a-z][a-z0-9+.-]*:\/*[^/?#\\]*@/i.test(text);
}

// Read as WHATWG normalises it, so `http://2130706433/` and `http://0x7f.1/` are 127.0.0.1. Names are not resolved:
// only those that can never be public are refused.
export function isNonPublicHost(text: string): boolean {
  const url = parseHttpUrl(text);
  if (!url) return true;
  const host = url.hostname;
  if (host.startsWith('[')) return isNonPublicIPv6(ipaddr.IPv6.parse(host.slice(1, -1)));
  // Pattern first: ipaddr.js throws on a name, which costs 10 µs.
  if (FOUR_DECIMALS.test(host) && ipaddr.IPv4.isValidFourPartDecimal(host)) return ipaddr.IPv4.parse(host).range() !== 'unicast';
  return isNeverPublicName(host);
}

// Mapped, translated (RFC 6145), NAT64 (RFC 6052) and compatible (deprecated, still routed by some stacks).
const EMBEDDING_IPV4 = ['::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96', '::/96'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

function isNonPublicIPv6(address: ipaddr.IPv6): boolean {
  const ipv4 = embeddedIPv4(address);
  return (ipv4 ?? address).range() !== 'unicast';
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, not 0.0.0.0 and 0.0.0.1.
  if (range === 'unspecified' || range === 'loopback') return null;
  if (!EMBEDDING_IPV4.some((prefix) => address.match(prefix))) return null;
  return new ipaddr.IPv4(address.toByteArray().slice(12));
}

// WHATWG reads `\` as `/` and drops tabs where curl keeps them: `http://a.example\@169.254.169.254/` has two hosts.
const AMBIGUOUS_IN_URL = /[\\\p{Cc}\s\p{White_Space}]/u;

export function isUnambiguousUrl(text: string): boolean {
  return !AMBIGUOUS_IN_URL.test(text);
}

// WHATWG reads `https:api.example.com/x` as `https://api.example.com/x`, where other parsers see a path and no host.
const SCHEME_AND_HOST = /^https?:\/\/[^/]/i;

export function hasSchemeAndHost(text: string): boolean {
  return SCHEME_AND_HOST.test(text);
}

export function isAbsoluteHttpUrl(text: string): boolean {
  return (
    hasSchemeAndHost(text) &&
    isURL(text, {
      protocols: ['http', 'https'],
      require_protocol: true,
      require_tld: false,
      allow_underscores: true,
      // HasCharacterCount counts code points; validator.js would count UTF-16 units.
      validate_length: false,
    }) &&
    parseHttpUrl(text) !== null
  );
}

export function IsAbsoluteHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return urlRule(
    'isAbsoluteHttpUrl',
    (text) => isAbsoluteHttpUrl(text),
    (property) => `${property} must be an absolute http(s) URL`,
    options,
  );
}

export function IsUnambiguousUrl(options?: ValidationOptions): PropertyDecorator {
  return urlRule(
    'isUnambiguousUrl',
    (text) => isUnambiguousUrl(text),
    (property) => `${property} must not contain a backslash, a control character or whitespace`,
    options,
  );
}

export function HasNoUserInfo(options?: ValidationOptions): PropertyDecorator {
  return urlRule(
    'hasNoUserInfo',
    (text) => !hasUserInfo(text),
    (property) => `${property} must not contain a user name or password`,
    options,
  );
}

// The service calls these URLs: a host inside the network would let a client reach it (SSRF).
export function IsPublicHost(options?: ValidationOptions): PropertyDecorator {
  return urlRule(
    'isPublicHost',
    (text) => !isNonPublicHost(text),
    (property) => `${property} must not name a private, loopback or link-local host (set ALLOW_PRIVATE_PROVIDER_HOSTS=true to allow)`,
    options,
  );
}

function urlRule(
  name: string,
  accepts: (text: string) => boolean,
  message: (property: string) => string,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: ({ property }) => message(property), ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && accepts(value) },
    });
}
