import { ValidationOptions, isURL, registerDecorator } from 'class-validator';
import ipaddr from 'ipaddr.js';

/** The URL as WHATWG parsers read it (Node's fetch, undici, browsers), or null when they cannot. */
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

/**
 * A user name or password before the host (`https://user:pass@host`). Also checked on the text itself, so that an `@`
 * in the authority counts even where WHATWG drops an empty one (`https://@host`) or another parser splits differently.
 */
export function hasUserInfo(text: string): boolean {
  const url = parseHttpUrl(text);
  if (url && (url.username !== '' || url.password !== '')) return true;
  return /^[a-z][a-z0-9+.-]*:\/*[^/?#\\]*@/i.test(text);
}

/**
 * A host that is not on the public internet: a loopback, private, link-local, unique-local, unspecified, carrier-grade
 * NAT, multicast or reserved address (every range ipaddr.js names; an IPv6 address that embeds an IPv4 one is judged as
 * that IPv4 address), or `localhost` and its subdomains. The host is read as WHATWG normalises it, so
 * `http://2130706433/`, `http://0x7f.1/`, `http://[::ffff:7f00:1]/` and `http://[::127.0.0.1]/` are 127.0.0.1. Names
 * are not resolved: one whose DNS answers a private address passes.
 */
export function isNonPublicHost(text: string): boolean {
  const url = parseHttpUrl(text);
  if (!url) return true;
  const host = url.hostname;
  // WHATWG writes every IPv4 form as four decimals, and an IPv6 address in brackets.
  if (host.startsWith('[')) return isNonPublicIPv6(ipaddr.IPv6.parse(host.slice(1, -1)));
  // Tested by pattern first: ipaddr.js answers "not an address" by catching an exception, which costs a name 10 µs.
  if (FOUR_DECIMALS.test(host) && ipaddr.IPv4.isValidFourPartDecimal(host)) return ipaddr.IPv4.parse(host).range() !== 'unicast';
  const name = host.replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * IPv6 prefixes whose last 32 bits are an IPv4 address that a translator or a dual stack reaches: IPv4-mapped,
 * IPv4-translated (RFC 6145), NAT64 (RFC 6052) and IPv4-compatible (deprecated, but still routed by some stacks).
 */
const EMBEDDING_IPV4 = ['::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96', '::/96'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

function isNonPublicIPv6(address: ipaddr.IPv6): boolean {
  const ipv4 = embeddedIPv4(address);
  return (ipv4 ?? address).range() !== 'unicast';
}

/** The IPv4 address that `address` stands for, or null. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, not 0.0.0.0 and 0.0.0.1.
  if (range === 'unspecified' || range === 'loopback') return null;
  if (!EMBEDDING_IPV4.some((prefix) => address.match(prefix))) return null;
  return new ipaddr.IPv4(address.toByteArray().slice(12));
}

/**
 * A backslash, a control character (ASCII's and the C1 ones, Unicode's Cc) or whitespace of any kind (Unicode's
 * White_Space, and JavaScript's `\s`): WHATWG reads `\` as `/` and drops tabs and newlines where curl and other parsers
 * keep them, so `http://sms.example.com\@169.254.169.254/` has a different host for each.
 */
const AMBIGUOUS_IN_URL = /[\\\p{Cc}\s\p{White_Space}]/u;

/** True when the text holds none of the characters on which common URL parsers disagree about the host. */
export function isUnambiguousUrl(text: string): boolean {
  return !AMBIGUOUS_IN_URL.test(text);
}

/** An absolute http(s) URL for validator.js (the rule as documented) and for WHATWG (the host the other checks read). */
export function isAbsoluteHttpUrl(text: string): boolean {
  return (
    isURL(text, {
      protocols: ['http', 'https'],
      require_protocol: true,
      require_tld: false,
      allow_underscores: true,
      // Length is HasCharacterCount's rule, in characters; validator.js would count UTF-16 units.
      validate_length: false,
    }) && parseHttpUrl(text) !== null
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

/** A URL every common parser reads with the same host as the service (see isUnambiguousUrl). */
export function IsUnambiguousUrl(options?: ValidationOptions): PropertyDecorator {
  return urlRule(
    'isUnambiguousUrl',
    (text) => isUnambiguousUrl(text),
    (property) => `${property} must not contain a backslash, a control character or whitespace`,
    options,
  );
}

/** A password in a URL would be stored, logged and answered as plain text: credentials have fields of their own. */
export function HasNoUserInfo(options?: ValidationOptions): PropertyDecorator {
  return urlRule(
    'hasNoUserInfo',
    (text) => !hasUserInfo(text),
    (property) => `${property} must not contain a user name or password`,
    options,
  );
}

/** The service calls these URLs: a host inside the network would let a client reach it (SSRF). */
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
