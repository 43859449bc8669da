/**
 * DNS names that can never be a public provider: refused as provider hosts and in provider URLs like private addresses,
 * each suffix as the name itself or any name under it. Names are not resolved, so a public name that answers a private
 * address (DNS rebinding) is the sender's to refuse once it resolves. `example`, `test` and `invalid` (RFC 6761) resolve
 * nowhere, so they are not listed.
 */
export const NEVER_PUBLIC_SUFFIXES: readonly string[] = [
  // RFC 6761 §6.3: the loopback host.
  'localhost',
  // ICANN, 2024-07-29: reserved for private use, never delegated.
  'internal',
  // RFC 6762: multicast DNS on the local link.
  'local',
  // The Linux distributions' /etc/hosts name for this machine.
  'localdomain',
  // RFC 8375: home networks.
  'home.arpa',
  // RFC 3172: infrastructure (reverse lookups), never a service's host.
  'arpa',
  // RFC 7686: Tor onion services, reached only through Tor.
  'onion',
  // RFC 9476: names outside the DNS, never delegated.
  'alt',
  // Kubernetes: service names inside a cluster.
  'svc',
  'cluster.local',
  // RFC 6762 appendix G: names private networks use.
  'lan',
  'intranet',
  'corp',
  // Wildcard DNS services that map a name to any address it spells (10.0.0.1.nip.io is 10.0.0.1).
  'nip.io',
  'sslip.io',
  'xip.io',
  'lvh.me',
  'vcap.me',
  'localtest.me',
  // Wildcard DNS too: every name under it answers 127.0.0.1, and a public certificate covers them all.
  'localhost.direct',
  // Wildcard DNS too, as nip.io: 10.0.0.1.traefik.me is 10.0.0.1.
  'traefik.me',
  // Wildcard DNS too: every name under it answers 127.0.0.1.
  'local.gd',
  // Wildcard DNS too, for DNS rebinding tests: a name spells the addresses it answers, one or two in turn.
  '1u.ms',
];

const SUFFIXES = new Set(NEVER_PUBLIC_SUFFIXES);

// A name as WHATWG writes a URL's host (lower case, punycode); trailing dots are not part of it.
export function isNeverPublicName(host: string): boolean {
  const name = host.replace(/\.+$/, '');
  if (SUFFIXES.has(name)) return true;
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
    if (SUFFIXES.has(name.slice(dot + 1))) return true;
  }
  return false;
}
