import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { HelmetOptions } from 'helmet';

/** Where Swagger UI's page and assets are served (swagger.ts). */
export const DOCUMENTS_PREFIX = '/docs';

/**
 * Every answer of the API (JSON, never rendered as a page): the header set of OWASP's REST Security Cheat Sheet. Nothing
 * may be framed, loaded or sniffed from it, and no cache may keep it, since answers carry secret keys. The headers
 * helmet adds for pages (opener policy, origin-agent-cluster, DNS prefetch, IE and Flash switches) say nothing about
 * JSON, and each one cost every caller its parsing: a sixth of get-client's throughput.
 */
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

/**
 * Swagger UI's page and assets: helmet's defaults (CSP with scripts from 'self' only: Swagger UI loads its scripts as
 * files and needs only its inline <style> and data: images, which the defaults allow), without
 * upgrade-insecure-requests, which would send the UI's own requests to https on a plain-http listener (TLS is
 * terminated in front of the service, if at all).
 */
export const DOCUMENT_SECURITY_HEADERS = computeSecurityHeaders({
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
});

/** The headers depend on nothing in the request but its path, so helmet computes them once, not on every request. */
export function securityHeadersFor(url: string): Record<string, string> {
  return url.startsWith(DOCUMENTS_PREFIX) ? DOCUMENT_SECURITY_HEADERS : API_SECURITY_HEADERS;
}

/** Runs helmet once against a recording response and keeps the headers it sets. */
function computeSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}
