import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { HelmetOptions } from 'helmet';

/**
 * helmet's defaults (CSP with scripts from 'self' only: Swagger UI loads its scripts as files and needs only its inline
 * <style> and data: images, which the defaults allow), without upgrade-insecure-requests, which would send the UI's own
 * requests to https on a plain-http listener (TLS is terminated in front of the service, if at all). The headers
 * depend on nothing in the request, so helmet computes them once, not on every request.
 */
export const SECURITY_HEADERS = computeSecurityHeaders({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });

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
