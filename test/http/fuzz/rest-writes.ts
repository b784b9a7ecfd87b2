import fc from 'fast-check';
import {
  deepJson,
  giantString,
  unstorableString,
  badProjectIdSegment,
  badUuidSegment,
  invalidValues,
  malformedJson,
  nonObjectJson,
  unknownKey,
  unknownReference,
  wrongContentTypes,
  wrongType,
} from './values.js';

/** The fuzzed owner's resources: a funded project whose asset has transactions. */
export interface FuzzTarget {
  projectId: number;
  assetId: string;
  symbol: string;
  systemId: string;
  customerId: string;
  /** Every id and address of the project's wallets (generated references avoid them). */
  known: string[];
  /** Pending holds of 5 from the system wallet to the customer: one per control (REST, GraphQL; capture, void). */
  holds: { restCapture: string; restVoid: string; gqlCapture: string; gqlVoid: string };
  /** A transfer of 10 from the system wallet to another customer, reversible. */
  transactionId: string;
}

export interface FuzzRequest {
  endpoint: string;
  breaker: string;
  method: string;
  path: string;
  body?: unknown;
  raw?: string;
  /** undefined: application/json; null: none. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object';

interface FieldSpec {
  type: JsonType;
  required: boolean;
  nullable?: boolean;
  /** Right type, certainly invalid (or certainly unknown) values; none for a boolean or a free object. */
  invalid?: fc.Arbitrary<unknown>;
}

interface EndpointSpec {
  name: string;
  method: 'POST' | 'PUT' | 'DELETE';
  /** The path with a valid parameter, and its parameter breakers. */
  path: (param?: string) => string;
  badParams?: fc.Arbitrary<string>;
  fields: Record<string, FieldSpec>;
  /** A valid body (alone, it may succeed: cases always add a breaker). */
  base: Record<string, unknown> | undefined;
  /** Extra breakers of this endpoint, each certainly refused. */
  extra?: fc.Arbitrary<FuzzRequest>[];
}

function endpoints(t: FuzzTarget): EndpointSpec[] {
  const ref = unknownReference(t.known);
  const projectId: FieldSpec = { type: 'integer', required: true, invalid: invalidValues.projectId };
  const walletRef = (required: boolean): FieldSpec => ({
    type: 'string',
    required,
    invalid: fc.oneof(fc.constant(''), fc.integer({ min: 129, max: 300 }).map((n) => 'w'.repeat(n)), ref),
  });
  const currency: FieldSpec = { type: 'string', required: true, invalid: fc.oneof(fc.constant(''), ref.filter((s) => s !== t.symbol)) };
  const amount: FieldSpec = { type: 'number', required: true, invalid: invalidValues.amount };
  const transfer = { amount: 1, currency: t.symbol, from: t.systemId, to: t.customerId, projectId: t.projectId };
  return [
    {
      name: 'POST /projects',
      method: 'POST',
      path: () => '/projects',
      fields: {
        name: { type: 'string', required: true, invalid: invalidValues.name },
        type: { type: 'string', required: false, invalid: invalidValues.projectType },
        exchangeRate: { type: 'number', required: false, invalid: invalidValues.exchangeRate },
        supportExchangeRate: { type: 'boolean', required: false },
        metadata: { type: 'object', required: false, invalid: invalidValues.metadata },
        asset_id: { type: 'string', required: false, nullable: true, invalid: fc.oneof(invalidValues.uuid, fc.uuid()) },
      },
      base: { name: 'fuzz project', type: 'loyalty', exchangeRate: 1.5, supportExchangeRate: true, metadata: { tier: 'gold' } },
    },
    {
      name: 'PUT /projects/{id}',
      method: 'PUT',
      path: (id = String(t.projectId)) => `/projects/${id}`,
      badParams: fc.oneof(badProjectIdSegment, fc.constantFrom('2147483647', '2000000000')),
      fields: { name: { type: 'string', required: true, invalid: invalidValues.name } },
      base: { name: 'renamed by fuzz' },
    },
    {
      name: 'POST /assets',
      method: 'POST',
      path: () => '/assets',
      fields: {
        name: { type: 'string', required: true, invalid: invalidValues.name },
        symbol: { type: 'string', required: true, invalid: fc.oneof(invalidValues.symbol, fc.constant(t.symbol)) },
        fractions: { type: 'integer', required: true, invalid: invalidValues.fractions },
        projectId: { ...projectId, invalid: fc.oneof(invalidValues.projectId, fc.constantFrom(2_147_483_647, 2_000_000_000)) },
        expiresAfterSeconds: { type: 'integer', required: false, nullable: true, invalid: invalidValues.expiresAfterSeconds },
      },
      base: { name: 'Fuzz coin', symbol: 'FUZZ', fractions: 2, projectId: t.projectId, expiresAfterSeconds: 3600 },
    },
    {
      name: 'PUT /assets/{id}',
      method: 'PUT',
      path: (id = t.assetId) => `/assets/${id}`,
      badParams: fc.oneof(badUuidSegment, fc.uuid()),
      fields: {
        // Optional here (CONTRACT Clarifications §3): without it the rename succeeds.
        projectId: { ...projectId, required: false },
        // The asset has transactions: any other symbol is a 409, and a malformed one a 400.
        symbol: { type: 'string', required: false, invalid: fc.oneof(invalidValues.symbol, fc.constantFrom('OTHER', 'X1')) },
        name: { type: 'string', required: true, invalid: invalidValues.name },
        expiresAfterSeconds: { type: 'integer', required: false, nullable: true, invalid: invalidValues.expiresAfterSeconds },
      },
      base: { projectId: t.projectId, name: 'renamed asset' },
    },
    {
      name: 'DELETE /assets/{id}',
      method: 'DELETE',
      // The base asset has transactions: deleting it is a 409 asset_in_use.
      path: (id = t.assetId) => `/assets/${id}`,
      badParams: fc.oneof(badUuidSegment, fc.uuid(), fc.constant(t.assetId)),
      fields: {},
      base: undefined,
    },
    {
      name: 'POST /wallets/create/{type}',
      method: 'POST',
      path: (type = 'customer') => `/wallets/create/${type}`,
      badParams: fc.oneof(fc.constantFrom('Customer', 'SYSTEM', 'admin', 'customers', 'mint'), badUuidSegment),
      fields: {
        projectId: { ...projectId, invalid: fc.oneof(invalidValues.projectId, fc.constantFrom(2_147_483_647)) },
        address: { type: 'string', required: false, invalid: invalidValues.address },
      },
      base: { projectId: t.projectId, address: 'fuzz-wallet' },
    },
    {
      name: 'PUT /wallets/status/{id}',
      method: 'PUT',
      path: (id = t.customerId) => `/wallets/status/${id}`,
      badParams: fc.oneof(badUuidSegment, fc.uuid()),
      fields: {
        projectId: { ...projectId, invalid: fc.oneof(invalidValues.projectId, fc.constantFrom(2_147_483_647)) },
        status: { type: 'string', required: true, invalid: invalidValues.status },
      },
      base: { projectId: t.projectId, status: 'suspended' },
    },
    {
      name: 'POST /transactions',
      method: 'POST',
      path: () => '/transactions',
      fields: { amount, currency, from: walletRef(true), to: walletRef(true), projectId },
      base: transfer,
      extra: [
        fc.constantFrom(t.systemId, t.customerId).map((w) => ({
          endpoint: 'POST /transactions',
          breaker: 'from = to',
          method: 'POST',
          path: '/transactions',
          body: { ...transfer, from: w, to: w },
        })),
        // The customer holds nothing: any amount overdraws it (409, nothing posted).
        fc.integer({ min: 1, max: 1_000_000 }).map((cents) => ({
          endpoint: 'POST /transactions',
          breaker: 'overdraw',
          method: 'POST',
          path: '/transactions',
          body: { ...transfer, from: t.customerId, to: t.systemId, amount: cents / 100 },
        })),
        // Conditions (CONTRACT §28): a broken one (400/404), or one that certainly fails (409 condition_failed).
        badConditions(t).map(({ breaker, conditions }) => ({ endpoint: 'POST /transactions', breaker, method: 'POST', path: '/transactions', body: { ...transfer, conditions } })),
      ],
    },
    {
      name: 'PUT /wallets/{id}/credit-line',
      method: 'PUT',
      path: (id = t.customerId) => `/wallets/${id}/credit-line`,
      badParams: fc.oneof(badUuidSegment, fc.uuid()),
      fields: {
        projectId: { ...projectId, invalid: fc.oneof(invalidValues.projectId, fc.constantFrom(2_147_483_647)) },
        currency,
        limit: { type: 'number', required: true, invalid: fc.oneof(fc.constantFrom(-1, -0.01, 0.001, 1.005, 2 ** 53), fc.double({ max: -1e-9, noNaN: true, noDefaultInfinity: true })) },
      },
      base: { projectId: t.projectId, currency: t.symbol, limit: 5 },
    },
    {
      name: 'POST /transactions/seed',
      method: 'POST',
      path: () => '/transactions/seed',
      fields: { amount, currency, projectId, to: walletRef(true) },
      base: { amount: 1, currency: t.symbol, projectId: t.projectId, to: t.systemId },
      extra: [
        fc.constant({
          endpoint: 'POST /transactions/seed',
          breaker: 'seed a customer wallet',
          method: 'POST',
          path: '/transactions/seed',
          body: { amount: 1, currency: t.symbol, projectId: t.projectId, to: t.customerId },
        }),
      ],
    },
    ...verbEndpoints(t, { projectId, walletRef, currency, amount, transfer }),
    {
      name: 'POST /webhook',
      method: 'POST',
      path: () => '/webhook',
      fields: {
        flowId: { type: 'string', required: true, invalid: invalidValues.flowId },
        projectId: { ...projectId, invalid: fc.oneof(invalidValues.projectId, fc.constantFrom(2_147_483_647)) },
        values: { type: 'object', required: true },
      },
      base: { flowId: 'reward', projectId: t.projectId, values: { to: t.customerId, amount: 1 } },
      extra: [
        // reward/redeem whose values break the flow's own rules.
        fc
          .record({
            flowId: fc.constantFrom('reward', 'redeem'),
            bad: fc.oneof(
              invalidValues.amount.map((amount) => ({ amount })),
              unknownReference(t.known).map((other) => ({ other })),
              ref.map((to) => ({ to, from: to })),
              fc.constant({ fiatAmount: 10 }),
            ),
          })
          .map(({ flowId, bad }) => {
            const valid = flowId === 'reward' ? { to: t.customerId, amount: 1 } : { from: t.customerId, amount: 1 };
            return { endpoint: 'POST /webhook', breaker: `${flowId} values`, method: 'POST', path: '/webhook', body: { flowId, projectId: t.projectId, values: { ...valid, ...bad } } };
          }),
      ],
    },
  ];
}

/** Holds, reversals and batches (CONTRACT §10–§13). */
function verbEndpoints(t: FuzzTarget, f: { projectId: FieldSpec; walletRef: (required: boolean) => FieldSpec; currency: FieldSpec; amount: FieldSpec; transfer: Record<string, unknown> }): EndpointSpec[] {
  const reference: FieldSpec = { type: 'string', required: false, invalid: fc.oneof(fc.constant(''), fc.constant('has space'), fc.constant('r'.repeat(129)), fc.constantFrom('é', 'a+b', 'x?y')) };
  const metadata: FieldSpec = { type: 'object', required: false, invalid: fc.constant({ big: 'x'.repeat(4 * 1024) }) };
  const holdId = fc.oneof(badUuidSegment, fc.uuid());
  const leg = { amount: 1, currency: t.symbol, from: t.systemId, to: t.customerId };
  const batch = (breaker: string, transfers: unknown): FuzzRequest => ({ endpoint: 'POST /transactions/batch', breaker, method: 'POST', path: '/transactions/batch', body: { projectId: t.projectId, transfers } });
  return [
    {
      name: 'POST /holds',
      method: 'POST',
      path: () => '/holds',
      fields: {
        amount: f.amount,
        currency: f.currency,
        from: f.walletRef(true),
        to: f.walletRef(true),
        projectId: f.projectId,
        expiresIn: { type: 'integer', required: false, invalid: fc.oneof(fc.constantFrom(0, -1, 2_592_001), fc.integer({ min: 2_592_001 })) },
        reference,
        metadata,
      },
      base: { ...f.transfer, expiresIn: 60, reference: 'fuzz-hold', metadata: { fuzz: true } },
      extra: [
        // The customer holds nothing: any hold from it overdraws (409, nothing reserved).
        fc.integer({ min: 1, max: 1_000_000 }).map((cents) => ({ endpoint: 'POST /holds', breaker: 'overdraw', method: 'POST', path: '/holds', body: { ...f.transfer, from: t.customerId, to: t.systemId, amount: cents / 100 } })),
      ],
    },
    {
      // a maturing hold (CONTRACT §26): matureIn in the valid request; matureAt or expiresIn beside it is refused
      name: 'POST /holds (maturing)',
      method: 'POST',
      path: () => '/holds',
      fields: {
        amount: f.amount,
        projectId: f.projectId,
        matureIn: { type: 'integer', required: false, invalid: fc.oneof(fc.constantFrom(0, -1, 59, 31_536_001), fc.integer({ min: 31_536_001 })) },
        matureAt: {
          type: 'string',
          required: false,
          invalid: fc.oneof(
            fc.constantFrom('2020-01-01T00:00:00Z', '2099-01-01T00:00:00', 'tomorrow', '', new Date(Date.now() + 3_600_000).toISOString()),
            fc.date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
          ),
        },
        expiresIn: { type: 'integer', required: false, invalid: fc.integer({ min: 1, max: 2_592_000 }) },
        reference,
      },
      base: { ...f.transfer, matureIn: 3600, reference: 'fuzz-maturing' },
    },
    {
      name: 'POST /holds/{id}/capture',
      method: 'POST',
      path: (id = t.holds.restCapture) => `/holds/${id}/capture`,
      badParams: holdId,
      fields: { projectId: f.projectId, amount: { type: 'number', required: false, invalid: fc.oneof(f.amount.invalid!, fc.integer({ min: 6, max: 1_000_000 })) } },
      base: { projectId: t.projectId, amount: 2 },
      extra: [badConditions(t).map(({ breaker, conditions }) => ({ endpoint: 'POST /holds/{id}/capture', breaker, method: 'POST', path: `/holds/${t.holds.restCapture}/capture`, body: { projectId: t.projectId, amount: 2, conditions } }))],
    },
    {
      name: 'POST /holds/{id}/void',
      method: 'POST',
      path: (id = t.holds.restVoid) => `/holds/${id}/void`,
      badParams: holdId,
      fields: { projectId: { ...f.projectId, invalid: fc.oneof(invalidValues.projectId, fc.constantFrom(2_147_483_647)) } },
      base: { projectId: t.projectId },
    },
    {
      name: 'POST /transactions/{id}/reverse',
      method: 'POST',
      path: (id = t.transactionId) => `/transactions/${id}/reverse`,
      badParams: holdId,
      fields: { projectId: f.projectId, amount: { type: 'number', required: false, invalid: fc.oneof(f.amount.invalid!, fc.integer({ min: 11, max: 1_000_000 })) }, reference, metadata },
      base: { projectId: t.projectId, amount: 0.01, reference: 'fuzz-reversal', metadata: { fuzz: true } },
    },
    {
      name: 'POST /transactions/batch',
      method: 'POST',
      path: () => '/transactions/batch',
      fields: { projectId: f.projectId },
      base: { projectId: t.projectId, transfers: [leg] },
      extra: [
        fc.constantFrom([], Array.from({ length: 101 }, () => leg), 'x', {}).map((transfers) => batch('transfers out of range', transfers)),
        fc.tuple(fc.nat({ max: 3 }), f.amount.invalid!).map(([i, amount]) => batch('a leg with an invalid amount', [...Array(i).fill(leg), { ...leg, amount }])),
        fc.tuple(fc.nat({ max: 3 }), unknownReference(t.known)).map(([i, to]) => batch('a leg to an unknown wallet', [...Array(i).fill(leg), { ...leg, to }])),
        fc.tuple(fc.nat({ max: 3 }), unknownKey(['amount', 'currency', 'from', 'to', 'reference', 'metadata', 'conditions'])).map(([i, key]) => batch('a leg with an unknown field', [...Array(i).fill(leg), { ...leg, [key]: 1 }])),
        fc.nat({ max: 3 }).map((i) => batch('a leg from = to', [...Array(i).fill(leg), { ...leg, to: t.systemId }])),
        fc.integer({ min: 1, max: 1_000_000 }).map((cents) => batch('a later leg overdraws', [leg, { ...leg, from: t.customerId, to: t.systemId, amount: 1 + cents / 100 }])),
        fc.constant(batch('a reference twice', [{ ...leg, reference: 'dup' }, { ...leg, reference: 'dup' }])),
        fc.tuple(fc.nat({ max: 3 }), badConditions(t)).map(([i, { breaker, conditions }]) => batch(`a leg's ${breaker}`, [...Array(i).fill(leg), { ...leg, conditions }])),
      ],
    },
  ];
}

/** The posting routes that take `?dryRun=` (CONTRACT §24). */
const DRY_RUN_ROUTES = new Set(['POST /transactions', 'POST /transactions/seed', 'POST /transactions/batch', 'POST /holds', 'POST /holds/{id}/capture', 'POST /holds/{id}/void', 'POST /transactions/{id}/reverse']);

/** Every case of one endpoint is its valid request with at least one certainly-wrong part. */
function casesOf(spec: EndpointSpec): fc.Arbitrary<FuzzRequest> {
  const fields = Object.keys(spec.fields);
  const request = (breaker: string, parts: Partial<FuzzRequest>): FuzzRequest => ({ endpoint: spec.name, breaker, method: spec.method, path: spec.path(), ...parts });
  const withBody = (breaker: string, body: Record<string, unknown>) => request(breaker, { body });
  const arbs: fc.Arbitrary<FuzzRequest>[] = [...(spec.extra ?? [])];
  const base = spec.base;
  if (spec.badParams) {
    arbs.push(spec.badParams.map((param) => request('path parameter', { path: spec.path(encodeURIComponent(param)), body: base })));
  }
  if (base) {
    // Noise: other fields replaced by anything at all, on top of the breaker.
    // Only fields the valid body has are replaced, so noise never completes an incomplete request.
    const noisy = (skip: string) =>
      fc.array(fc.tuple(fc.constantFrom(...Object.keys(base)), fc.jsonValue({ maxDepth: 2 })), { maxLength: 2 }).map((pairs) => {
        const body = { ...base };
        for (const [key, value] of pairs) if (key !== skip) body[key] = value;
        return body;
      });
    arbs.push(
      fc.tuple(unknownKey(fields), fc.jsonValue({ maxDepth: 2 }), noisy('')).map(([key, value, body]) => withBody('unknown field', { ...body, [key]: value })),
    );
    for (const field of fields) {
      const f = spec.fields[field];
      if (f.required && field in base) {
        arbs.push(noisy(field).map((body) => {
          const { [field]: _, ...rest } = body;
          return withBody(`missing ${field}`, rest);
        }));
      }
      arbs.push(fc.tuple(wrongType(f.type, f.nullable), noisy(field)).map(([value, body]) => withBody(`${field}: wrong type`, { ...body, [field]: value })));
      if (f.type === 'string') {
        arbs.push(fc.tuple(unstorableString, noisy(field)).map(([value, body]) => withBody(`${field}: unstorable text`, { ...body, [field]: value })));
        // within the 100 KiB body limit, far beyond any string field's rule
        arbs.push(fc.tuple(giantString, noisy(field)).map(([value, body]) => withBody(`${field}: giant string`, { ...body, [field]: value })));
      }
      if (f.type === 'object') {
        const bad = fc.oneof(unstorableString.map((v) => ({ note: v })), unstorableString.map((k) => ({ [k]: 1 })), deepJson.map((v) => ({ deep: v })));
        arbs.push(fc.tuple(bad, noisy(field)).map(([value, body]) => withBody(`${field}: unstorable JSON`, { ...body, [field]: value })));
      }
      if (f.invalid) arbs.push(fc.tuple(f.invalid, noisy(field)).map(([value, body]) => withBody(`${field}: invalid value`, { ...body, [field]: value })));
    }
    if (DRY_RUN_ROUTES.has(spec.name)) {
      // the valid body with a `dryRun` the route refuses: a bad value, or the parameter twice (CONTRACT §24 clarification)
      arbs.push(
        fc.constantFrom('dryRun=maybe', 'dryRun=TRUE', 'dryRun=1', 'dryRun=', 'dryRun', 'dryRun=true&dryRun=false', 'dryRun=true&dryRun=true', 'dryRun=false&dryRun=false', 'dryRun=false&dryRun=true').map((query) =>
          request('dryRun query', { path: `${spec.path()}?${query}`, body: base }),
        ),
      );
    }
    arbs.push(malformedJson.map((raw) => request('malformed JSON', { raw })));
    arbs.push(nonObjectJson.map((raw) => request('non-object JSON', { raw })));
    arbs.push(wrongContentTypes.map((contentType) => request('media type', { raw: JSON.stringify(base), contentType })));
    arbs.push(fc.constant(request('body over 100 KiB', { body: { ...base, padding: 'x'.repeat(101 * 1024) } })));
  }
  return fc.oneof(...arbs);
}

/** `perEndpoint` cases for each REST write endpoint, the same on every run (fixed seed). */
export function restFuzzCases(target: FuzzTarget, perEndpoint: number, seed: number): FuzzRequest[] {
  return endpoints(target).flatMap((spec, i) => fc.sample(casesOf(spec), { numRuns: perEndpoint, seed: seed + i }));
}

/** Each endpoint's valid request, unbroken: the control that proves the cases fail for their breaker. */
export function restControlRequests(target: FuzzTarget): FuzzRequest[] {
  return endpoints(target).map((spec) => ({ endpoint: spec.name, breaker: 'none', method: spec.method, path: spec.path(), body: spec.base }));
}

/**
 * Conditions (CONTRACT §28) that are certainly refused on a posting from the system wallet to the
 * customer: malformed (400), in a currency the project lacks (404), on a wallet not a party (400),
 * more than 10 (400), or well formed and certainly false (409 condition_failed: the customer ends
 * above zero, the system wallet has no line).
 */
function badConditions(t: FuzzTarget): fc.Arbitrary<{ breaker: string; conditions: unknown }> {
  const good = { wallet: t.customerId, currency: t.symbol, field: 'balance', op: 'gte', value: 0 };
  const broken = fc.oneof(
    fc.constantFrom<Record<string, unknown>>({ field: 'held' }, { op: 'ne' }, { op: 'GTE' }, { value: 0.001 }, { value: '1' }, { value: 2 ** 53 }, { wallet: '' }, { currency: '' }, { extra: 1 }),
    unknownReference(t.known).map((wallet) => ({ wallet })),
    fc.constantFrom('NOPE', 'X1').filter((s) => s !== t.symbol).map((currency) => ({ currency })),
  );
  return fc.oneof(
    fc.tuple(fc.nat({ max: 3 }), broken).map(([i, bad]) => ({ breaker: 'a broken condition', conditions: [...Array(i).fill(good), { ...good, ...bad }] })),
    fc.constantFrom('x', {}, [1], [null]).map((conditions) => ({ breaker: 'conditions of the wrong type', conditions })),
    fc.constant({ breaker: 'eleven conditions', conditions: Array(11).fill(good) }),
    fc.constantFrom<Record<string, unknown>>({ op: 'lt', value: 0 }, { op: 'eq', value: -1 }, { wallet: t.systemId, op: 'lt', value: 0 }).map((bad) => ({ breaker: 'a condition that fails', conditions: [good, { ...good, ...bad }] })),
  );
}
