import fc from 'fast-check';
import type { FuzzTarget } from './rest-writes.js';
import { deepJson, hostileString, invalidValues, unknownKey, unknownReference, unstorableString } from './values.js';

export interface GraphQLCase {
  mutation: string | null;
  breaker: string;
  query: string;
  variables?: Record<string, unknown>;
}

type GqlType = 'ID' | 'String' | 'Int' | 'Float' | 'Boolean' | 'JSONObject' | 'Decimal' | 'Enum' | 'DateTime';

interface GqlField {
  path: string[];
  type: GqlType;
  required: boolean;
  /** Right GraphQL type, certainly refused by the domain rules. */
  invalid?: fc.Arbitrary<unknown>;
}

interface MutationSpec {
  mutation: string;
  /** `$key` is always the idempotencyKey variable. */
  signature: string;
  call: string;
  base: Record<string, unknown>;
  fields: GqlField[];
}

const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true });
const objectish = fc.oneof(fc.constant({}), fc.constant({ a: 1 }));
const arrayish = fc.oneof(fc.constant([]), fc.constant(['x']), fc.constant([1, 2]));

/** Variable values GraphQL's own coercion refuses for the type. */
function wrongGqlType(type: GqlType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'ID':
      return fc.oneof(fc.boolean(), fc.constantFrom(1.5, -0.25, 1e21), objectish, arrayish);
    case 'String':
      return fc.oneof(fc.integer(), finiteDouble, fc.boolean(), objectish, arrayish);
    case 'Int':
      return fc.oneof(fc.constantFrom('1', 'x', ''), fc.constantFrom(1.5, 2 ** 31, -(2 ** 31) - 1, 1e300), fc.boolean(), objectish);
    case 'Float':
      return fc.oneof(fc.constantFrom('1', 'x', ''), fc.boolean(), objectish, arrayish);
    case 'Boolean':
      return fc.oneof(fc.constantFrom('true', 'false', ''), fc.integer(), objectish);
    case 'JSONObject':
      return fc.oneof(arrayish, hostileString, fc.integer(), fc.boolean());
    case 'Decimal':
      return fc.oneof(fc.boolean(), objectish, arrayish);
    case 'DateTime':
      return fc.oneof(fc.constantFrom('tomorrow', '2026-13-01T00:00:00Z', '', '2026-02-30T00:00:00Z'), fc.boolean(), objectish, arrayish);
    case 'Enum':
      return fc.oneof(fc.constantFrom('customer', 'active', 'Suspended', 'MINT', ''), hostileString, fc.integer(), fc.boolean());
  }
}

const badProjectIdText = fc.oneof(
  fc.constantFrom('0', '-1', 'abc', '1.5', '2147483648', '99999999999999999', '', ' 1', '1e3', '0x10'),
  invalidValues.projectId.filter((n) => Number.isInteger(n) && Math.abs(n) < 2 ** 31).map((n) => n),
);
const badAmount = fc.oneof(
  invalidValues.amount,
  fc.constantFrom('1.005', '0', '-1', '', 'abc', '1e3', 'NaN', 'Infinity', ' ', '.5', '1.', '0.001', '100000000000000', '--1', '1_000'),
);

function mutations(t: FuzzTarget): MutationSpec[] {
  const pid = String(t.projectId);
  const ref = unknownReference(t.known);
  const projectId = (path: string[]): GqlField => ({ path, type: 'ID', required: true, invalid: fc.oneof(badProjectIdText, fc.constant('2147483647')) });
  const name = (path: string[], required = true): GqlField => ({ path, type: 'String', required, invalid: fc.oneof(invalidValues.name, unstorableString) });
  const walletRef = (path: string[]): GqlField => ({ path, type: 'String', required: true, invalid: fc.oneof(fc.constant(''), ref, unstorableString) });
  const currency: GqlField = { path: ['input', 'currency'], type: 'String', required: true, invalid: fc.oneof(fc.constant(''), ref.filter((s) => s !== t.symbol), unstorableString) };
  const amount: GqlField = { path: ['input', 'amount'], type: 'Decimal', required: true, invalid: badAmount };
  return [
    {
      mutation: 'createProject',
      signature: '$input: CreateProjectInput!',
      call: 'createProject(input: $input, idempotencyKey: $key) { id }',
      base: { input: { name: 'gql fuzz', type: 'loyalty', exchangeRate: 1.5, supportExchangeRate: true, metadata: { tier: 'gold' } } },
      fields: [
        name(['input', 'name']),
        { path: ['input', 'type'], type: 'String', required: false, invalid: invalidValues.projectType },
        { path: ['input', 'exchangeRate'], type: 'Float', required: false, invalid: invalidValues.exchangeRate },
        { path: ['input', 'supportExchangeRate'], type: 'Boolean', required: false },
        { path: ['input', 'metadata'], type: 'JSONObject', required: false, invalid: fc.oneof(invalidValues.metadata, deepJson.map((deep) => ({ deep })), unstorableString.map((v) => ({ v }))) },
        { path: ['input', 'assetId'], type: 'ID', required: false, invalid: fc.oneof(invalidValues.uuid, fc.uuid()) },
      ],
    },
    {
      mutation: 'renameProject',
      signature: '$id: ID!, $name: String!',
      call: 'renameProject(id: $id, name: $name, idempotencyKey: $key) { id }',
      base: { id: pid, name: 'renamed by gql fuzz' },
      fields: [projectId(['id']), name(['name'])],
    },
    {
      mutation: 'createAsset',
      signature: '$input: CreateAssetInput!',
      call: 'createAsset(input: $input, idempotencyKey: $key) { id }',
      base: { input: { projectId: pid, name: 'Gql coin', symbol: 'GQL', fractions: 2 } },
      fields: [
        projectId(['input', 'projectId']),
        name(['input', 'name']),
        { path: ['input', 'symbol'], type: 'String', required: true, invalid: fc.oneof(invalidValues.symbol, fc.constant(t.symbol)) },
        { path: ['input', 'fractions'], type: 'Int', required: true, invalid: fc.oneof(fc.integer({ min: 19, max: 2 ** 31 - 1 }), fc.integer({ min: -(2 ** 31), max: -1 })) },
        { path: ['input', 'expiresAfterSeconds'], type: 'Int', required: false, invalid: invalidValues.expiresAfterSeconds.filter((n) => Number.isInteger(n) && Math.abs(n) < 2 ** 31) },
      ],
    },
    {
      mutation: 'updateAsset',
      signature: '$id: ID!, $input: UpdateAssetInput!',
      call: 'updateAsset(id: $id, input: $input, idempotencyKey: $key) { id }',
      base: { id: t.assetId, input: { projectId: pid, name: 'renamed by gql fuzz' } },
      fields: [
        { path: ['id'], type: 'ID', required: true, invalid: fc.oneof(invalidValues.uuid, fc.uuid()) },
        // Optional here (CONTRACT Clarifications §3): without it the rename succeeds.
        { ...projectId(['input', 'projectId']), required: false },
        name(['input', 'name']),
        { path: ['input', 'symbol'], type: 'String', required: false, invalid: fc.oneof(invalidValues.symbol, fc.constantFrom('OTHER', 'X1')) },
        { path: ['input', 'expiresAfterSeconds'], type: 'Int', required: false, invalid: invalidValues.expiresAfterSeconds.filter((n) => Number.isInteger(n) && Math.abs(n) < 2 ** 31) },
      ],
    },
    {
      mutation: 'deleteAsset',
      signature: '$id: ID!',
      call: 'deleteAsset(id: $id, idempotencyKey: $key) { id deleted }',
      // The asset has transactions: deleting it is refused (asset_in_use).
      base: { id: t.assetId },
      fields: [{ path: ['id'], type: 'ID', required: true, invalid: fc.oneof(invalidValues.uuid, fc.uuid(), fc.constant(t.assetId)) }],
    },
    {
      mutation: 'createWallet',
      signature: '$type: WalletType!, $input: CreateWalletInput!',
      call: 'createWallet(type: $type, input: $input, idempotencyKey: $key) { id }',
      base: { type: 'CUSTOMER', input: { projectId: pid, address: 'gql-fuzz-wallet' } },
      fields: [
        { path: ['type'], type: 'Enum', required: true },
        projectId(['input', 'projectId']),
        { path: ['input', 'address'], type: 'String', required: false, invalid: fc.oneof(invalidValues.address, unstorableString) },
      ],
    },
    {
      mutation: 'setWalletStatus',
      signature: '$id: ID!, $input: SetWalletStatusInput!',
      call: 'setWalletStatus(id: $id, input: $input, idempotencyKey: $key) { id }',
      base: { id: t.customerId, input: { projectId: pid, status: 'SUSPENDED' } },
      fields: [
        { path: ['id'], type: 'ID', required: true, invalid: fc.oneof(invalidValues.uuid, fc.uuid()) },
        projectId(['input', 'projectId']),
        { path: ['input', 'status'], type: 'Enum', required: true },
      ],
    },
    {
      mutation: 'transfer',
      signature: '$input: TransferInput!',
      call: 'transfer(input: $input, idempotencyKey: $key) { id }',
      base: { input: { projectId: pid, currency: t.symbol, from: t.systemId, to: t.customerId, amount: '1', conditions: [{ wallet: t.customerId, currency: t.symbol, field: 'BALANCE', op: 'GTE', value: '0' }] } },
      fields: [
        projectId(['input', 'projectId']), currency, walletRef(['input', 'from']), walletRef(['input', 'to']), amount,
        // conditions (CONTRACT §28): a wallet not a party or unknown, a currency the project lacks, a value not exact
        { path: ['input', 'conditions', '0', 'wallet'], type: 'String', required: true, invalid: fc.oneof(fc.constant(''), ref, fc.constant(t.systemId === t.customerId ? '' : 'not-a-party')) },
        { path: ['input', 'conditions', '0', 'currency'], type: 'String', required: true, invalid: fc.oneof(fc.constant(''), ref.filter((s) => s !== t.symbol)) },
        { path: ['input', 'conditions', '0', 'field'], type: 'Enum', required: true },
        { path: ['input', 'conditions', '0', 'op'], type: 'Enum', required: true },
        { path: ['input', 'conditions', '0', 'value'], type: 'Decimal', required: true, invalid: fc.constantFrom('1.005', '', 'abc', '1e3', 'NaN', 'Infinity', ' ', '.5', '1.', '--1', '1_000', '0.001', '100000000000000', '1000000') },
      ],
    },
    {
      mutation: 'seed',
      signature: '$input: SeedInput!',
      call: 'seed(input: $input, idempotencyKey: $key) { id }',
      base: { input: { projectId: pid, currency: t.symbol, to: t.systemId, amount: 1 } },
      fields: [projectId(['input', 'projectId']), currency, walletRef(['input', 'to']), amount],
    },
    {
      mutation: 'createHold',
      signature: '$p: ID!, $currency: String!, $from: String!, $to: String!, $amount: Decimal!, $expiresIn: Int, $reference: String, $metadata: JSONObject',
      call: 'createHold(projectId: $p, currency: $currency, from: $from, to: $to, amount: $amount, expiresIn: $expiresIn, reference: $reference, metadata: $metadata, idempotencyKey: $key) { id }',
      base: { p: pid, currency: t.symbol, from: t.systemId, to: t.customerId, amount: '1', expiresIn: 60, reference: 'gql-fuzz-hold', metadata: { fuzz: 1 } },
      fields: [
        projectId(['p']),
        { ...currency, path: ['currency'] },
        walletRef(['from']),
        walletRef(['to']),
        { ...amount, path: ['amount'] },
        { path: ['expiresIn'], type: 'Int', required: false, invalid: fc.constantFrom(0, -1, 2_592_001) },
        { path: ['reference'], type: 'String', required: false, invalid: fc.constantFrom('', 'has space', 'r'.repeat(129)) },
        { path: ['metadata'], type: 'JSONObject', required: false, invalid: fc.constant({ big: 'x'.repeat(4 * 1024) }) },
      ],
    },
    {
      // a maturing hold (CONTRACT §26): matureIn in the valid request; matureAt, or expiresIn, beside it is refused
      mutation: 'createHold',
      signature: '$p: ID!, $currency: String!, $from: String!, $to: String!, $amount: Decimal!, $matureIn: Int, $matureAt: DateTime, $expiresIn: Int, $reference: String',
      call: 'createHold(projectId: $p, currency: $currency, from: $from, to: $to, amount: $amount, matureIn: $matureIn, matureAt: $matureAt, expiresIn: $expiresIn, reference: $reference, idempotencyKey: $key) { id }',
      base: { p: pid, currency: t.symbol, from: t.systemId, to: t.customerId, amount: '1', matureIn: 3600, reference: 'gql-fuzz-maturing' },
      fields: [
        projectId(['p']),
        { ...amount, path: ['amount'] },
        { path: ['matureIn'], type: 'Int', required: false, invalid: fc.constantFrom(0, -1, 59, 31_536_001) },
        { path: ['matureAt'], type: 'DateTime', required: false, invalid: fc.constantFrom('2020-01-01T00:00:00Z', '2099-01-01T00:00:00Z', new Date(Date.now() + 3_600_000).toISOString()) },
        { path: ['expiresIn'], type: 'Int', required: false, invalid: fc.constantFrom(1, 60, 2_592_000) },
      ],
    },
    {
      mutation: 'captureHold',
      signature: '$id: ID!, $p: ID!, $amount: Decimal',
      call: 'captureHold(id: $id, projectId: $p, amount: $amount, idempotencyKey: $key) { hold { id } }',
      base: { id: t.holds.gqlCapture, p: pid, amount: '2' },
      fields: [
        { path: ['id'], type: 'ID', required: true, invalid: fc.oneof(invalidValues.uuid, fc.uuid()) },
        projectId(['p']),
        { path: ['amount'], type: 'Decimal', required: false, invalid: fc.oneof(badAmount, fc.constantFrom('5.01', '6', '1000')) },
      ],
    },
    {
      mutation: 'voidHold',
      signature: '$id: ID!, $p: ID!',
      call: 'voidHold(id: $id, projectId: $p, idempotencyKey: $key) { id }',
      base: { id: t.holds.gqlVoid, p: pid },
      fields: [{ path: ['id'], type: 'ID', required: true, invalid: fc.oneof(invalidValues.uuid, fc.uuid()) }, projectId(['p'])],
    },
    {
      mutation: 'reverseTransaction',
      signature: '$id: ID!, $p: ID!, $amount: Decimal',
      call: 'reverseTransaction(id: $id, projectId: $p, amount: $amount, idempotencyKey: $key) { id }',
      base: { id: t.transactionId, p: pid, amount: '0.01' },
      fields: [
        { path: ['id'], type: 'ID', required: true, invalid: fc.oneof(invalidValues.uuid, fc.uuid()) },
        projectId(['p']),
        { path: ['amount'], type: 'Decimal', required: false, invalid: fc.oneof(badAmount, fc.constantFrom('10.01', '1000')) },
      ],
    },
    {
      mutation: 'transferBatch',
      signature: '$p: ID!, $transfers: [BatchTransferInput!]!',
      call: 'transferBatch(projectId: $p, transfers: $transfers, idempotencyKey: $key) { id }',
      base: { p: pid, transfers: [{ currency: t.symbol, from: t.systemId, to: t.customerId, amount: '1' }] },
      fields: [
        projectId(['p']),
        { path: ['transfers', '0', 'amount'], type: 'Decimal', required: true, invalid: badAmount },
        { path: ['transfers', '0', 'to'], type: 'String', required: true, invalid: fc.oneof(fc.constant(''), ref, unstorableString) },
        { path: ['transfers', '0', 'currency'], type: 'String', required: true, invalid: fc.oneof(fc.constant(''), ref.filter((s) => s !== t.symbol)) },
      ],
    },
    {
      mutation: 'webhook',
      signature: '$input: WebhookInput!',
      call: 'webhook(input: $input, idempotencyKey: $key) { success message }',
      base: { input: { flowId: 'reward', projectId: pid, values: { to: t.customerId, amount: 1 } } },
      fields: [
        { path: ['input', 'flowId'], type: 'String', required: true, invalid: fc.oneof(invalidValues.flowId, unstorableString) },
        projectId(['input', 'projectId']),
        { path: ['input', 'values'], type: 'JSONObject', required: true, invalid: fc.oneof(deepJson.map((deep) => ({ deep })), unstorableString.map((v) => ({ to: v, amount: 1 })), invalidValues.amount.map((a) => ({ to: t.customerId, amount: a }))) },
      ],
    },
  ];
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** An own, enumerable property even for `__proto__` (sent as a real JSON key). */
function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  Object.defineProperty(node, path[path.length - 1], { value, enumerable: true, configurable: true, writable: true });
}

function deleteAt(target: Record<string, unknown>, path: string[]): void {
  let node = target;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  delete node[path[path.length - 1]];
}

function casesOf(spec: MutationSpec): fc.Arbitrary<GraphQLCase> {
  const query = `mutation Fuzz(${spec.signature}, $key: String) { ${spec.call} }`;
  const make = (breaker: string, edit: (vars: Record<string, unknown>) => void, key?: string): GraphQLCase => {
    const variables = clone(spec.base);
    edit(variables);
    if (key !== undefined) variables.key = key;
    return { mutation: spec.mutation, breaker, query, variables };
  };
  const arbs: fc.Arbitrary<GraphQLCase>[] = [
    fc.constantFrom('', 'k'.repeat(256)).map((key) => make('idempotencyKey length', () => undefined, key)),
    fc.constantFrom(...spec.fields.filter((f) => f.required).map((f) => f.path)).map((path) => make(`null for a required ${path.join('.')}`, (vars) => setAt(vars, path, null))),
  ];
  const inputKeys = Object.keys((spec.base.input as Record<string, unknown> | undefined) ?? {});
  if (spec.base.input) {
    arbs.push(fc.tuple(unknownKey(inputKeys), fc.jsonValue({ maxDepth: 1 })).map(([key, value]) => make('unknown input field', (vars) => setAt(vars, ['input', key], value))));
  }
  for (const field of spec.fields) {
    const label = field.path.join('.');
    if (field.required) arbs.push(fc.constant(make(`missing ${label}`, (vars) => deleteAt(vars, field.path))));
    arbs.push(wrongGqlType(field.type).map((value) => make(`${label}: wrong type`, (vars) => setAt(vars, field.path, value))));
    if (field.invalid) arbs.push(field.invalid.map((value) => make(`${label}: invalid value`, (vars) => setAt(vars, field.path, value))));
  }
  return fc.oneof(...arbs);
}

/** Whole documents that are not a valid operation, or that carry text no column can store. */
const malformedDocuments: fc.Arbitrary<GraphQLCase> = fc.oneof(
  fc.oneof(fc.string({ maxLength: 60 }), hostileString).map((query) => ({ mutation: null, breaker: 'random document', query })),
  fc.constantFrom(
    'mutation { transfer(input: {}) { id } }',
    'mutation { noSuchMutation { id } }',
    'mutation { createProject(input: { name: 1 }) { id } }',
    'mutation { createProject(input: { name: "x", extra: 1 }) { id } }',
    'mutation { createProject(input: { name: "a\\u0000b" }) { id } }',
    'mutation { createProject(input: { name: "ok", metadata: { a: "\\u0000" } }) { id } }',
    'mutation { webhook(input: { flowId: "x\\u0000", projectId: "1", values: {} }) { success } }',
    'mutation { createProject(input: { name: "ok" }) { id } ',
    'mutation M($a: Int) { createProject(input: { name: $a }) { id } }',
    '{ __typename } mutation { x }',
    'subscription { x }',
  ).map((query) => ({ mutation: null, breaker: 'malformed document', query })),
);

/** `perMutation` cases for each mutation plus `documents` malformed documents (fixed seed). */
export function graphqlFuzzCases(target: FuzzTarget, perMutation: number, documents: number, seed: number): GraphQLCase[] {
  const specs = mutations(target);
  return [
    ...specs.flatMap((spec, i) => fc.sample(casesOf(spec), { numRuns: perMutation, seed: seed + 100 + i })),
    ...fc.sample(malformedDocuments, { numRuns: documents, seed: seed + 99 }),
  ];
}

export function graphqlControlCases(target: FuzzTarget): GraphQLCase[] {
  return mutations(target).map((spec) => ({ mutation: spec.mutation, breaker: 'none', query: `mutation Fuzz(${spec.signature}, $key: String) { ${spec.call} }`, variables: clone(spec.base) }));
}
