import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { ERROR_STATUS } from '../domain/errors.js';
import type { Route } from '../http/route.js';
import { ErrorBody } from './schemas.js';

/** One outbound request the service makes (OpenAPI 3.1 `webhooks`): its body and the headers that come with it. */
export interface WebhookDoc {
  /** The key under `webhooks` (the event type). */
  name: string;
  operationId: string;
  summary: string;
  body: z.ZodType;
  headers: { name: string; description: string; schema: Record<string, unknown> }[];
  /** What the receiver's answer means to the sender. */
  answer: string;
}

type Io = 'input' | 'output';
type ToSchema = (schema: z.ZodType, io: Io) => Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

/**
 * OpenAPI 3.1 built from the very zod schemas that validate requests. A zod schema with a
 * `.meta({ id })` becomes `components.schemas[id]`, referenced wherever it is used.
 */
export function buildOpenApi(routes: Route[], webhooks: WebhookDoc[] = []): Record<string, unknown> {
  const components = new SchemaComponents();
  const toSchema: ToSchema = (schema, io) => components.toSchema(schema, io);
  const error = toSchema(ErrorBody, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (!r.doc) continue;
    const operation: Record<string, unknown> = {
      operationId: r.doc.operationId,
      summary: r.doc.summary,
      tags: [r.doc.tag],
      security: r.auth === 'api_key' ? [{ apiKey: [] }] : r.auth === 'admin' ? [{ adminToken: [] }] : [],
      parameters: [
        ...objectParameters(r.params, 'path', toSchema),
        ...objectParameters(r.query, 'query', toSchema),
        ...(r.method === 'POST' && r.auth === 'api_key'
          ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } }]
          : []),
      ],
      responses: {
        [r.doc.response.status]: {
          description: 'success',
          content: Object.fromEntries(Object.entries(r.doc.response.content ?? { 'application/json': r.doc.response.schema }).map(([type, schema]) => [type, { schema: toSchema(schema, 'output') }])),
        },
        ...(r.doc.dryRun && {
          200: {
            description: 'dry run (`dryRun=true`): the answer the real call would give, with `dryRun: true`; nothing is written and its ids are never stored',
            content: { 'application/json': { schema: toSchema(r.doc.dryRun, 'output') } },
          },
        }),
        ...errorResponses(r, error),
      },
    };
    if (r.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toSchema(r.body, 'input') } } };
    const path = (paths[r.path] ??= {});
    path[r.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Ledger service', version: '1', description: 'REST compatibility interface of the ledger (see CONTRACT.md).' },
    paths,
    webhooks: Object.fromEntries(webhooks.map((w) => [w.name, { post: webhookOperation(w, toSchema) }])),
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'api_key' },
        adminToken: { type: 'apiKey', in: 'header', name: 'admin_token' },
      },
      schemas: components.schemas,
    },
  };
}

/**
 * zod writes a schema with an id into the `$defs` of each conversion, as `#/$defs/<id>`; the
 * document keeps one copy of each under `components.schemas` and points there instead. One id
 * must mean one JSON Schema throughout: a request and a response that read the same schema
 * differently (defaults, transforms) under one id would make a wrong client, so that throws.
 */
class SchemaComponents {
  readonly schemas: Record<string, unknown> = {};

  toSchema(schema: z.ZodType, io: Io): Record<string, unknown> {
    const { $schema: _dialect, $defs, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, unknown>)) this.add(id, pointToComponents(definition));
    return pointToComponents(json) as Record<string, unknown>;
  }

  private add(id: string, definition: unknown): void {
    // ids zod makes up for a reused or recursive schema without one (`__schema0`) differ from one conversion to the next
    if (id.startsWith('__schema')) throw new Error(`OpenAPI: give the schema at ${JSON.stringify(definition).slice(0, 120)} a .meta({ id }) (it is recursive or reused)`);
    const known = this.schemas[id];
    if (known !== undefined && !isDeepStrictEqual(known, definition)) {
      throw new Error(`OpenAPI: the schema id "${id}" names two different JSON Schemas (a request and a response reading it differently, or two schemas with one id)`);
    }
    this.schemas[id] = definition;
  }
}

function pointToComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointToComponents);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' ? inner.replace(/^#\/\$defs\//, COMPONENT_REF) : pointToComponents(inner)]),
  );
}

function webhookOperation(w: WebhookDoc, toSchema: ToSchema): Record<string, unknown> {
  return {
    operationId: w.operationId,
    summary: w.summary,
    tags: ['webhooks'],
    parameters: w.headers.map((h) => ({ name: h.name, in: 'header', required: true, description: h.description, schema: h.schema })),
    requestBody: { required: true, content: { 'application/json': { schema: toSchema(w.body, 'output') } } },
    responses: { '2XX': { description: w.answer } },
  };
}

function objectParameters(schema: z.ZodType | undefined, location: 'path' | 'query', toSchema: ToSchema) {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

function errorResponses(r: Route, error: Record<string, unknown>): Record<string, unknown> {
  const codes = new Set<string>([...(r.doc?.errors ?? []), 'internal_error']);
  // every authenticated route runs SQL, which the statement time-out may cut (CONTRACT §18)
  if (r.auth !== 'none') ['unauthorized', 'timeout'].forEach((c) => codes.add(c));
  if (r.auth === 'api_key') codes.add('rate_limited');
  if (r.body) ['validation_error', 'invalid_json', 'payload_too_large', 'unsupported_media_type'].forEach((c) => codes.add(c));
  if (r.method === 'POST' && r.auth === 'api_key') ['idempotency_in_progress', 'idempotency_key_reuse'].forEach((c) => codes.add(c));
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code as keyof typeof ERROR_STATUS];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries([...byStatus].map(([status, list]) => [status, { description: list.join(', '), content: { 'application/json': { schema: error } } }]));
}
