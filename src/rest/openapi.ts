import { z } from 'zod';
import { ERROR_STATUS } from '../domain/errors.js';
import type { Route } from '../http/route.js';
import { ErrorBody } from './schemas.js';

/** OpenAPI 3.1 built from the very zod schemas that validate requests. */
export function buildOpenApi(routes: Route[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  // OpenAPI 3.1 schemas are JSON Schema 2020-12. An empty metadata registry inlines schemas that carry
  // a zod `.meta({ id })`, which would otherwise become `$defs` refs relative to the wrong document.
  const toSchema = (schema: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', metadata: z.registry() });
    return json as Record<string, unknown>;
  };
  for (const r of routes) {
    if (!r.doc) continue;
    const operation: Record<string, unknown> = {
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
        ...errorResponses(r),
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
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'api_key' },
        adminToken: { type: 'apiKey', in: 'header', name: 'admin_token' },
      },
      schemas: { Error: toSchema(ErrorBody, 'output') },
    },
  };
}

function objectParameters(schema: z.ZodType | undefined, location: 'path' | 'query', toSchema: (s: z.ZodType, io: 'input' | 'output') => Record<string, unknown>) {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

function errorResponses(r: Route): Record<string, unknown> {
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
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      { description: list.join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]),
  );
}
