import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { HelmetOptions } from 'helmet';

export const DOCUMENTS_PREFIX = '/docs';

// OWASP's REST set; helmet's page headers say nothing about JSON and cost a sixth of get-client's throughput.
export const API_SECURITY_HEADERS = {
  ...computeSecurityHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    xFrameOptions: { action: 'deny' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }),
  'cache-control': 'no-store',
};

// Without upgrade-insecure-requests, which would send the UI's requests to https on a plain-http listener.
export const DOCUMENT_SECURITY_HEADERS = computeSecurityHeaders({
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
});

export function securityHeadersFor(url: string): Record<string, string> {
  return url.startsWith(DOCUMENTS_PREFIX) ? DOCUMENT_SECURITY_HEADERS : API_SECURITY_HEADERS;
}

function computeSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}
