import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import { withNumericExclusiveBounds } from './contract';

/**
 * Every request the e2e suites make is also put, as it was sent, to openapi-backend: a request validator from npm
 * driven by openapi.json alone, as a gateway in front of the service would be. Where the document accepts a request
 * that the service refused, the refusal must be one that stored state decides (a credential, an id that is not there
 * or not the caller's, a conflict with what is stored, a limit, an unreachable dependency) or one whose reason a
 * description of the document states (a cross-field rule, uniqueness, size, decimal places, a sealed token, a cursor).
 * So the document says every rule the service holds that JSON Schema can express. A request the document refuses is
 * left alone: tests send bad input on purpose.
 */

/** Refusals a request the document accepts may get, whatever its body: they depend on what is stored or configured. */
const STATE_STATUSES: Record<number, string> = {
  401: 'a credential missing, unknown or expired',
  403: 'a credential that may not do this, or a client disabled',
  404: 'an id that is not there, or not the caller’s',
  409: 'a conflict with what is stored',
  429: 'a rate limit',
  503: 'a dependency unreachable',
};

/** A 400 or 422 that stored state decides, by its message. */
const STATE_REFUSALS: RegExp[] = [
  // The client's stored allowedDestinations ask for one.
  /^destination is required for this client$/,
  // A kept answer under the same Idempotency-Key.
  /^Idempotency-Key (was used with a different request|has expired for an answer holding a secret key)$/,
];

interface DescribedRule {
  rule: string;
  /** The service's message for it. */
  refusal: RegExp;
  /** How a description of the operation (or of the whole API) states it. */
  statement: RegExp;
}

/** A 400 whose reason JSON Schema cannot say, by its message, with the words the document says it in. */
const DESCRIBED_RULES: DescribedRule[] = [
  {
    rule: 'decimal places',
    refusal: /with at most 6 decimal places$|cannot be kept exactly as a number/,
    statement: /at most 6 decimal places/i,
  },
  { rule: 'a prefix once per list', refusal: / has prefix [0-9]+ more than once$/, statement: /each prefix once/ },
  { rule: 'cursors as given', refusal: /^cursor is not valid$/, statement: /exactly as it was given/ },
  { rule: 'sealed tokens as issued', refusal: /^verifyApiKey is not valid$/, statement: /exactly as it was issued/ },
  {
    rule: 'integers in plain decimal digits',
    refusal: /^[A-Za-z]+ must be (a positive integer|an integer from [0-9]+ to [0-9]+)$/,
    statement: /plain decimal digits/,
  },
  { rule: 'valid Unicode', refusal: / must be valid Unicode/, statement: /must be valid Unicode/ },
  {
    rule: 'URL hosts in their usual form',
    refusal: / must be an absolute http\(s\) URL$/,
    statement: /Its host a DNS name or an IP address in its usual form/,
  },
  { rule: 'URLs without user info', refusal: / must not contain a user name or password$/, statement: /Without a user name or password/ },
  {
    rule: 'URLs every parser reads alike',
    refusal: / must not contain a backslash, a control character or whitespace$/,
    statement: /Without a backslash, a control character or whitespace/,
  },
  { rule: 'public hosts', refusal: / must not name a private, loopback or link-local host/, statement: /private, loopback, link-local/ },
  {
    rule: 'provider host forms',
    refusal: /^host must (be a DNS name|not be a wildcard over a public suffix)/,
    statement: /A DNS name .* not over a public suffix/,
  },
  {
    rule: 'credentials follow their destination',
    refusal: / must be sent again to change /,
    statement: /must send every stored credential again/,
  },
  { rule: 'a report counts something', refusal: /^a report must give one count >= 1 /, statement: /must give one count >= 1 / },
  { rule: 'codes within what was sent', refusal: /^codesSent must not be more than sent$/, statement: /at most sent/ },
  {
    rule: 'a possible number in its E.164 spelling',
    refusal: /^destination must be a possible E\.164 number /,
    statement: /destination must be a possible E\.164 number: a known calling code, a length possible for its country/,
  },
  {
    rule: "a scoped key's end",
    refusal: /^expiresAt must (be null or an RFC 3339 instant|be at least 60 s and at most 366 days ahead)/,
    statement: /an RFC 3339 instant with Z or an offset and at most 3 fraction digits, 60 s to 366 days ahead/,
  },
  {
    rule: "a scoped key's sources as networks",
    refusal: /^allowedSources\[[0-9]+\] (must be an IPv4 address|covers too many addresses|has bits set below|is an IPv4-mapped|repeats)/,
    statement: /\(\/8 to \/32, \/7 to \/128\) and no bits set below it; no IPv4-mapped IPv6 address; each network once/,
  },
  {
    rule: 'no sources for a dispatch key',
    refusal: /^allowedSources must be null for a key whose only scope is dispatch/,
    statement: /Not for a key whose only scope is dispatch/,
  },
];

interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as sent; none and an empty one are no body. */
  payload?: string;
}

interface Refusal {
  status: number;
  body: unknown;
}

let loaded: Promise<OpenAPIBackend> | undefined;

function validator(): Promise<OpenAPIBackend> {
  loaded ??= (async () => {
    const document = JSON.parse(readFileSync(resolve(__dirname, '../../openapi.json'), 'utf8')) as Document;
    // OpenAPI 3.0 writes `exclusiveMaximum: true` beside `maximum`; the JSON Schema Ajv reads puts the bound in it.
    withNumericExclusiveBounds(document);
    // quick: operations compiled when first used, so a file pays only for the ones it calls.
    const api = new OpenAPIBackend({
      definition: document,
      quick: true,
      customizeAjv: (ajv) => {
        // The formats openapi.json uses (uri, uuid, date-time), as ajv-formats reads them.
        addFormats(ajv);
        return ajv;
      },
    });
    await api.init();
    return api;
  })();
  return loaded;
}

/** The operation the document gives the request, and why the document refuses the request (undefined: it accepts it). */
async function judged(request: SentRequest): Promise<{ api: OpenAPIBackend; operation?: Operation; refusal?: string }> {
  const api = await validator();
  const [path, query = ''] = request.url.split('?', 2);
  const payload = request.payload === '' ? undefined : request.payload;
  const asSent = { method: request.method.toLowerCase(), path, query, headers: request.headers, body: payload };
  const operation = api.router.matchOperation(asSent);
  if (!operation) return { api, refusal: 'no such operation' };
  const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
  // The media types the document lists are the ones it takes, announced with a body or without one.
  const contentType = lowerCased(request.headers)['content-type'];
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (content && (payload !== undefined || contentType !== undefined) && !(mediaType in content)) {
    return { api, operation, refusal: `a body as ${mediaType || 'no media type'}` };
  }
  const result = api.validator.validateRequest(asSent, operation);
  if (!result.valid) return { api, operation, refusal: JSON.stringify(result.errors) };
  return { api, operation, refusal: content && payload !== undefined ? bodyRefusal(api, operation, payload) : undefined };
}

// validateRequest checks a JSON body only when it is an object; the operation's own body validator takes any.
function bodyRefusal(api: OpenAPIBackend, operation: Operation, payload: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return 'a body that is not JSON';
  }
  const [validate] = api.validator.getRequestValidatorsForOperation(operation.operationId!);
  return validate({ requestBody: body }) ? undefined : JSON.stringify(validate.errors);
}

/** Why openapi.json refuses the request, or undefined when it accepts it. */
export async function documentRefusal(request: SentRequest): Promise<string | undefined> {
  return (await judged(request)).refusal;
}

/**
 * Throws, naming the request, when the document accepts a request that the service refused for a reason that is
 * neither stored state nor a rule a description of the operation states.
 */
export async function assertRefusalIsDescribed(request: SentRequest, answer: Refusal): Promise<void> {
  if (answer.status < 400 || STATE_STATUSES[answer.status] !== undefined) return;
  const { api, operation, refusal } = await judged(request);
  if (refusal !== undefined || operation === undefined) return;
  const error = (answer.body as { error?: unknown } | undefined)?.error;
  const message = typeof error === 'string' ? error : JSON.stringify(answer.body);
  const statements = describedText(api.definition, operation);
  const where = `${request.method} ${request.url} ${request.payload?.slice(0, 300) ?? ''}`.trim();
  if (answer.status === 413 && /KiB/.test(description(operation.responses?.['413']))) return;
  if ((answer.status === 400 || answer.status === 422) && STATE_REFUSALS.some((pattern) => pattern.test(message))) return;
  if (answer.status === 400) {
    // A message may name several fields: each must be a described rule.
    const undescribed = message
      .split('; ')
      .filter((reason) => !DESCRIBED_RULES.some((rule) => rule.refusal.test(reason) && rule.statement.test(statements)));
    if (undescribed.length === 0) return;
    throw new Error(
      `openapi.json accepts ${where}, which the service refused with 400 for a reason no description of the operation states: ` +
        undescribed.join('; '),
    );
  }
  throw new Error(`openapi.json accepts ${where}, which the service refused with ${answer.status}: ${message}`);
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function description(node: unknown): string {
  return typeof node === 'object' && node !== null && typeof (node as { description?: unknown }).description === 'string'
    ? (node as { description: string }).description
    : '';
}

/** Every description the operation carries (itself, its parameters, its body's schema at any depth, its responses) and the API's own. */
function describedText(document: Document, operation: Operation): string {
  const texts: string[] = [document.info.description ?? ''];
  const visit = (node: unknown, seen: Set<unknown>): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (typeof (node as { description?: unknown }).description === 'string') texts.push((node as { description: string }).description);
    for (const child of Object.values(node)) visit(child, seen);
  };
  visit(operation, new Set());
  return texts.join('\n');
}
