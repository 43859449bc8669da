import { parse as parseDomain } from 'tldts';
import { hasSchemeAndHost, isNonPublicHost, isUnambiguousUrl, parseHttpUrl } from './url-host';

type SuffixTrie = typeof import('tldts/dist/types/src/data/trie');
// Not tldts's public API (so it is pinned): parse() does not tell whether a suffix lies under a name.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { edgeChild, edgeLength, edgeStart, labelText, rulesRoot } = require('tldts/dist/cjs/src/data/trie') as SuffixTrie;

export interface ProviderHostForm {
  host: string;
  wildcard: boolean;
}

export const WILDCARD_PREFIX = '*.';

export const PROVIDER_HOST_FORMS =
  'host must be a DNS name (api.provider.com), *. and a DNS name (*.provider.com) or an IP address, without scheme, port or path';

// eslint-disable-next-line no-control-regex
const OUTSIDE_A_HOST = /[\s\u0000-\u001f\u007f/\\?#@%[\]]/;
const FOUR_DECIMALS = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const LABEL = /^[a-z0-9-]{1,63}$/;
const MAX_NAME_LENGTH = 253;

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

function urlHostOf(written: string): string | null {
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

function hasDnsLabels(host: string): boolean {
  if (host.length > MAX_NAME_LENGTH) return false;
  const labels = host.split('.');
  return labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels[labels.length - 1]);
}

// `amazonaws.com` is no suffix, but `s3.amazonaws.com` under it is: its names belong to different owners.
export function coversPublicSuffix(name: string): boolean {
  return parseDomain(name, { allowPrivateDomains: true }).domain === null || hasRuleAtOrBelow(name);
}

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

function labelOffsets(): Uint32Array {
  if (edgeOffsets) return edgeOffsets;
  edgeOffsets = new Uint32Array(edgeLength.length);
  for (let edge = 0, at = 0; edge < edgeLength.length; edge += 1) {
    edgeOffsets[edge] = at;
    at += edgeLength[edge];
  }
  return edgeOffsets;
}

export function approvalHostOf(url: string): string | null {
  if (!isUnambiguousUrl(url) || !hasSchemeAndHost(url)) return null;
  const hostname = parseHttpUrl(url)?.hostname;
  if (!hostname) return null;
  if (hostname.startsWith('[')) return hostname.slice(1, -1);
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

export function isIpHost(host: string): boolean {
  return isIpAddress(host);
}
