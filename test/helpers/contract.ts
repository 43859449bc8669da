import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Every answer the e2e suite receives is checked against the committed openapi.json (which CI proves is what the
 * code generates): the status must be documented for the operation, and a JSON body must match its schema exactly
 * (no property the document does not name). So the document cannot drift from what the service does.
 * Every request the service accepts is checked too: a validator in front of the service (Prism, a gateway) must let
 * through what the service takes, a request without a body included.
 */
const DOCUMENT_ID = 'openapi.json';
const ERROR_SCHEMA = `${DOCUMENT_ID}#/components/schemas/ErrorResponseDto`;
/** Swagger UI's own pages and assets are not operations of the API. */
const UNDOCUMENTED_PREFIXES = ['/docs'];

interface Operation {
  requestBody?: { required?: boolean; content: Record<string, { schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

let loaded: { document: Document; ajv: Ajv; validators: Map<string, ValidateFunction> } | undefined;

function contract() {
  if (loaded) return loaded;
  const document = JSON.parse(readFileSync(resolve(__dirname, '../../openapi.json'), 'utf8')) as Document;
  const strict = structuredClone(document);
  for (const schema of Object.values(strict.components.schemas)) {
    if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  }
  withNumericExclusiveBounds(strict);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // The document says `uri` (RFC 3986, ASCII only) of the request URL fields, which take any absolute URL, IRIs included.
  ajv.addFormat('uri', (text: string) => URL.canParse(text));
  ajv.addSchema(strict, DOCUMENT_ID);
  loaded = { document, ajv, validators: new Map() };
  return loaded;
}

/** OpenAPI 3.0 writes `exclusiveMinimum: true` beside `minimum`; the JSON Schema Ajv reads puts the bound in it. */
export function withNumericExclusiveBounds(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ]) {
    const value = schema[exclusive];
    if (typeof value !== 'boolean') continue;
    delete schema[exclusive];
    if (value && typeof schema[bound] === 'number') {
      schema[exclusive] = schema[bound];
      delete schema[bound];
    }
  }
  for (const child of Object.values(schema)) withNumericExclusiveBounds(child);
}

function validatorFor(ref: string): ValidateFunction {
  const { ajv, validators } = contract();
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

const pointer = (...segments: string[]) => segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export interface ReceivedAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
  raw: string;
}

/** The document's path for a request path: itself, or the template it fills (`/api/v1/clients/{clientId}`). */
function documentedPath(document: Document, path: string): string {
  if (document.paths[path]) return path;
  const filled = (template: string) => new RegExp(`^${template.replace(/\{[^}/]+\}/g, '[^/]+')}$`).test(path);
  return Object.keys(document.paths).find((template) => template.includes('{') && filled(template)) ?? path;
}

/** The request's path, its documented template and operation; undefined for Swagger UI's own routes. */
function operationOf(method: string, url: string): { path: string; template: string; verb: string; operation?: Operation } | undefined {
  const path = url.split('?')[0];
  if (UNDOCUMENTED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}-`))) {
    return undefined;
  }
  const { document } = contract();
  const verb = method.toLowerCase();
  const template = documentedPath(document, path);
  return { path, template, verb, operation: document.paths[template]?.[verb] };
}

/** Throws, naming the request, when the answer is not what the document says for that operation and status. */
export function assertAnswerMatchesContract(method: string, url: string, answer: ReceivedAnswer): void {
  const found = operationOf(method, url);
  if (!found) return;
  const { path, template, verb, operation } = found;
  const where = `${method} ${path} answered ${answer.status}`;

  if (!operation) {
    // No such operation: only the error envelope may come back (404 for an unknown route or method).
    if (answer.status < 400) throw new Error(`${where}, but the document has no such operation`);
    check(ERROR_SCHEMA, answer, where);
    return;
  }
  const response = operation.responses[String(answer.status)];
  if (!response) throw new Error(`${where}: the document does not list ${answer.status} for this operation`);
  const header = answer.headers['content-type'];
  const contentType = typeof header === 'string' ? header : '';
  const media = Object.keys(response.content ?? {});
  if (media.length === 0) return;
  if (media.includes('application/json') && contentType.startsWith('application/json')) {
    check(
      `${DOCUMENT_ID}#/${pointer('paths', template, verb, 'responses', String(answer.status), 'content', 'application/json', 'schema')}`,
      answer,
      where,
    );
    return;
  }
  if (!media.some((type) => contentType.startsWith(type))) {
    throw new Error(`${where} as ${contentType || 'no content type'}, but the document says ${media.join(', ')}`);
  }
}

function check(ref: string, answer: ReceivedAnswer, where: string): void {
  if (answer.body === undefined) throw new Error(`${where} with a body that is not JSON: ${answer.raw.slice(0, 200)}`);
  const validate = validatorFor(ref);
  if (!validate(answer.body)) {
    throw new Error(
      `${where} with a body the document does not describe: ${contract().ajv.errorsText(validate.errors)}\n${answer.raw.slice(0, 500)}`,
    );
  }
}

/**
 * Throws, naming the request, when the service accepted (answered below 400) a request the document refuses: an
 * operation it does not list, no body where it says one is required, or a JSON body its request schema does not
 * describe. `payload` is the body as sent (none, or an empty one, is no body, as the service takes it). Requests the
 * service refused are not checked: tests send malformed ones on purpose.
 */
export function assertRequestMatchesContract(method: string, url: string, payload: string | undefined, status: number): void {
  const found = status < 400 ? operationOf(method, url) : undefined;
  if (!found) return;
  const { path, template, verb, operation } = found;
  const where = `${method} ${path} was answered ${status}`;
  if (!operation) throw new Error(`${where}, but the document has no such operation`);
  const requestBody = operation.requestBody;
  // The document says nothing of a body here: no validator refuses one for it.
  if (!requestBody) return;
  if (payload === undefined || payload === '') {
    if (requestBody.required) throw new Error(`${where} without a body, but the document says its body is required`);
    return;
  }
  if (!requestBody.content['application/json']) throw new Error(`${where} with a JSON body, but the document takes none`);
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    throw new Error(`${where} with a body that is not JSON: ${payload.slice(0, 200)}`);
  }
  const validate = validatorFor(
    `${DOCUMENT_ID}#/${pointer('paths', template, verb, 'requestBody', 'content', 'application/json', 'schema')}`,
  );
  if (!validate(body)) {
    throw new Error(
      `${where} with a body the document does not describe: ${contract().ajv.errorsText(validate.errors)}\n${payload.slice(0, 500)}`,
    );
  }
}
