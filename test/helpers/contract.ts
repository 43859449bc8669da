import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Every answer the e2e suite receives is checked against the committed openapi.json (which CI proves is what the
 * code generates): the status must be documented for the operation, and a JSON body must match its schema exactly
 * (no property the document does not name). So the document cannot drift from what the service does.
 */
const DOCUMENT_ID = 'openapi.json';
const ERROR_SCHEMA = `${DOCUMENT_ID}#/components/schemas/ErrorResponseDto`;
/** Swagger UI's own pages and assets are not operations of the API. */
const UNDOCUMENTED_PREFIXES = ['/docs'];

interface Operation {
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
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(strict, DOCUMENT_ID);
  loaded = { document, ajv, validators: new Map() };
  return loaded;
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

/** Throws, naming the request, when the answer is not what the document says for that operation and status. */
export function assertAnswerMatchesContract(method: string, url: string, answer: ReceivedAnswer): void {
  const path = url.split('?')[0];
  if (UNDOCUMENTED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}-`))) return;
  const { document } = contract();
  const verb = method.toLowerCase();
  const template = documentedPath(document, path);
  const operation = document.paths[template]?.[verb];
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
