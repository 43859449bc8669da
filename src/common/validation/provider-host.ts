import { parse as parseDomain } from 'tldts';
import { isNonPublicHost, isUnambiguousUrl, parseHttpUrl } from './url-host';

type SuffixTrie = typeof import('tldts/dist/types/src/data/trie');
/**
 * The Public Suffix List's rules as tldts bundles them (no network; tldts is pinned, as this is not its public API),
 * walked below to find suffixes under a name, which tldts's parse() does not tell.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { edgeChild, edgeLength, edgeStart, labelText, rulesRoot } = require('tldts/dist/cjs/src/data/trie') as SuffixTrie;

/** An approved provider host as stored: an exact name or IP address, or `*.` and a name (every name under it). */
export interface ProviderHostForm {
  host: string;
  wildcard: boolean;
}

export const WILDCARD_PREFIX = '*.';

export const PROVIDER_HOST_FORMS =
  'host must be a DNS name (api.provider.com), *. and a DNS name (*.provider.com) or an IP address, without scheme, port or path';

/** Characters that never belong to a host as written here: a scheme, port, path, user, brackets, escapes, spaces. */
// eslint-disable-next-line no-control-regex
const OUTSIDE_A_HOST = /[\s\u0000-\u001f\u007f/\\?#@%[\]]/;
const FOUR_DECIMALS = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const LABEL = /^[a-z0-9-]{1,63}$/;
const MAX_NAME_LENGTH = 253;

/**
 * A host an admin approves, as it is stored (§ provider hosts in docs/interface.md), or the message refusing it:
 * a DNS name converted as URL hosts are (domainToASCII: lower case, Unicode to punycode), its trailing dot removed;
 * `*.` and such a name, unless the name is a public suffix or has one under it; an IP address as the WHATWG URL parser
 * writes it (IPv6 without brackets). Private addresses and localhost are refused unless `allowPrivate`.
 */
export function providerHostForm(text: string, allowPrivate: boolean): ProviderHostForm | string {
  if (text === '' || OUTSIDE_A_HOST.test(text)) return PROVIDER_HOST_FORMS;
  const wildcard = text.startsWith(WILDCARD_PREFIX);
  const written = wildcard ? text.slice(WILDCARD_PREFIX.length) : text;
  const host = urlHostOf(written);
  if (host === null) return PROVIDER_HOST_FORMS;
  const ip = isIpAddress(host);
  if (wildcard && ip) return PROVIDER_HOST_FORMS;
  if (!ip && !hasDnsLabels(host)) return PROVIDER_HOST_FORMS;
  // `*.com` is refused for what it covers, before its name is found to have one label only.
  if (wildcard && coversPublicSuffix(host)) {
    return `host must not be a wildcard over a public suffix (${WILDCARD_PREFIX}${host}): approve the provider's own names`;
  }
  if (!ip && host.split('.').length < 2) return PROVIDER_HOST_FORMS;
  if (!allowPrivate && isNonPublicHost(`http://${host.includes(':') ? `[${host}]` : host}/`)) {
    return 'host must not name a private, loopback or link-local host (set ALLOW_PRIVATE_PROVIDER_HOSTS=true to allow)';
  }
  return { host: wildcard ? WILDCARD_PREFIX + host : host, wildcard };
}

/** The host as the WHATWG parser reads it in a URL, IPv6 without brackets and a name without its trailing dot; else null. */
function urlHostOf(written: string): string | null {
  // A colon outside IPv6 is a port.
  const ipv6 = written.includes(':');
  let hostname: string;
  try {
    hostname = new URL(`http://${ipv6 ? `[${written}]` : written}/`).hostname;
  } catch {
    return null;
  }
  if (ipv6) return hostname.slice(1, -1);
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

function isIpAddress(host: string): boolean {
  return host.includes(':') || FOUR_DECIMALS.test(host);
}

/** Labels of 1 to 63 letters, digits and `-`, at most 253 characters, the last not all digits (at least two: checked apart). */
function hasDnsLabels(host: string): boolean {
  if (host.length > MAX_NAME_LENGTH) return false;
  const labels = host.split('.');
  return labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels[labels.length - 1]);
}

/**
 * Whether names under `name` belong to different owners: `name` is a public suffix (`com`, `co.uk`, `github.io`), or the
 * list has a suffix under it (`amazonaws.com`, above `s3.amazonaws.com`), or a wildcard rule makes it one (`*.ck`).
 */
export function coversPublicSuffix(name: string): boolean {
  return parseDomain(name, { allowPrivateDomains: true }).domain === null || hasRuleAtOrBelow(name);
}

/** Whether the list holds a rule at or under `name`: its rules' trie has an edge for each label, read right to left. */
function hasRuleAtOrBelow(name: string): boolean {
  const offsets = labelOffsets();
  let node = rulesRoot;
  for (const label of name.split('.').reverse()) {
    let child = -1;
    for (let edge = edgeStart[node]; edge < edgeStart[node + 1] && child === -1; edge += 1) {
      if (edgeLength[edge] === label.length && labelText.startsWith(label, offsets[edge])) child = edgeChild[edge];
    }
    if (child === -1) return false;
    node = child;
  }
  return true;
}

let edgeOffsets: Uint32Array | undefined;

/** Where each edge's label starts in labelText: the labels are stored one after the other, in edge order. */
function labelOffsets(): Uint32Array {
  if (edgeOffsets) return edgeOffsets;
  edgeOffsets = new Uint32Array(edgeLength.length);
  for (let edge = 0, at = 0; edge < edgeLength.length; edge += 1) {
    edgeOffsets[edge] = at;
    at += edgeLength[edge];
  }
  return edgeOffsets;
}

/**
 * The host that approval judges in a provider URL: as the WHATWG parser reads it, IPv6 without brackets, a name without
 * its trailing dot; null (never approved) for a URL that is not http(s), does not parse, or holds `\`, whitespace or a
 * control character.
 */
export function approvalHostOf(url: string): string | null {
  if (!isUnambiguousUrl(url)) return null;
  const hostname = parseHttpUrl(url)?.hostname;
  if (!hostname) return null;
  if (hostname.startsWith('[')) return hostname.slice(1, -1);
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

/** Whether a host read by approvalHostOf() may match a wildcard: IP addresses never do. */
export function isIpHost(host: string): boolean {
  return isIpAddress(host);
}
