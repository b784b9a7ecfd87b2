import { createRequire } from 'node:module';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { execute, introspectionFromSchema, isAbstractType, isEnumType, isObjectType, isScalarType, parse, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import { buildLedgerSchema, subgraphSdl } from '../../src/graphql/schema.js';
import { ledgerSchema, PREBUILT_SUBGRAPH, schemaFromSubgraphSdl } from '../../src/graphql/subgraph-schema.js';
import { fundedProject, transfer, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { ProjectWalletsDocument } from './generated/graphql.js';
import { raw, run } from './support/client.js';

/**
 * The bundle builds its GraphQL schema from the subgraph SDL the build printed
 * (schemaFromSubgraphSdl) instead of by @apollo/subgraph's buildSubgraphSchema (buildLedgerSchema):
 * the two schemas must be alike in every part the service reads, and answer alike.
 */
let full: GraphQLSchema;
let sdl: string;
let prebuilt: GraphQLSchema;

beforeAll(async () => {
  full = (await buildLedgerSchema()).schema;
  sdl = await subgraphSdl();
  prebuilt = await schemaFromSubgraphSdl(sdl);
});

/** Each type as the service and graphql-js read it: AST, resolvers present, federation's hooks. */
function shape(type: GraphQLNamedType) {
  const subgraph = (type.extensions as { apollo?: { subgraph?: Record<string, unknown> } }).apollo?.subgraph;
  return {
    name: type.name,
    kind: type.constructor.name,
    description: type.description,
    astNode: type.astNode,
    extensionASTNodes: type.extensionASTNodes,
    subgraphExtensions: Object.keys(subgraph ?? {}),
    ...(isObjectType(type) && {
      isTypeOf: type.isTypeOf !== undefined,
      fields: Object.values(type.getFields()).map((field) => ({ name: field.name, resolve: field.resolve !== undefined, subscribe: field.subscribe !== undefined, astNode: field.astNode })),
    }),
    ...(isAbstractType(type) && { resolveType: type.resolveType !== undefined }),
    ...(isEnumType(type) && { values: type.getValues().map((value) => [value.name, value.value]) }),
  };
}

describe('the schema built from the build\'s subgraph SDL', () => {
  it('is not what tsc\'s output runs: only the bundle carries the SDL', async () => {
    expect(PREBUILT_SUBGRAPH).toBe(false);
    expect(printSchemaWithDirectives(await ledgerSchema())).toBe(printSchemaWithDirectives(full));
  });

  it('prints, introspects and answers `_service { sdl }` as buildSubgraphSchema\'s does', async () => {
    expect(printSchemaWithDirectives(prebuilt)).toBe(printSchemaWithDirectives(full));
    expect(introspectionFromSchema(prebuilt)).toEqual(introspectionFromSchema(full));
    const service = parse('{ _service { sdl } }');
    const answer = await execute({ schema: prebuilt, document: service });
    expect(answer).toEqual(await execute({ schema: full, document: service }));
    expect((answer.data as { _service: { sdl: string } })._service.sdl).toBe(sdl);
  });

  it('has the same types, ASTs, resolvers, type resolvers, entity hooks, scalars and enum values', () => {
    expect(Object.keys(prebuilt.getTypeMap())).toEqual(Object.keys(full.getTypeMap()));
    expect(prebuilt.astNode).toEqual(full.astNode);
    expect(prebuilt.extensionASTNodes).toEqual(full.extensionASTNodes);
    expect(prebuilt.getDirectives().map((directive) => directive.astNode)).toEqual(full.getDirectives().map((directive) => directive.astNode));
    for (const type of Object.values(full.getTypeMap())) {
      const other = prebuilt.getType(type.name)!;
      expect(shape(other)).toEqual(shape(type));
      // the same functions where both take them from our modules rather than make them per build
      const hooks = (t: GraphQLNamedType) => (t.extensions as { apollo?: { subgraph?: { resolveReference?: unknown } } }).apollo?.subgraph?.resolveReference;
      expect(hooks(other)).toBe(hooks(type));
      if (isScalarType(type) && isScalarType(other)) {
        expect([other.serialize, other.parseValue]).toEqual([type.serialize, type.parseValue]);
        // graphql-js makes a default parseLiteral per scalar it builds from SDL (federation's _Any, …)
        expect(String(other.parseLiteral)).toBe(String(type.parseLiteral));
      }
    }
    const entityTypes = Object.values(full.getTypeMap()).filter((type) => shape(type).subgraphExtensions.includes('resolveReference'));
    expect(entityTypes.map((type) => type.name).sort()).toEqual(['Asset', 'Hold', 'Project', 'Transaction', 'Wallet', 'WalletGroup']);
  });
});

describe('a service on the schema built from the SDL', () => {
  let withFull: TestApp;
  let withPrebuilt: TestApp;
  let p: FundedProject;

  beforeAll(async () => {
    withFull = await startTestApp({ graphqlSqlPlans: false });
    withPrebuilt = await startTestApp({ databaseUrl: withFull.databaseUrl, graphqlSqlPlans: false, graphqlSchema: prebuilt });
    p = await fundedProject(withFull, await withFull.issueKey('prebuilt'), { customers: 2 });
    await transfer(withFull, p, p.system.id, p.customers[0].id, 3);
  });
  afterAll(async () => {
    await withPrebuilt?.close();
    await withFull?.close();
  });

  it('answers `_entities` of every entity type, and `_service`, byte for byte as buildSubgraphSchema\'s', async () => {
    const seed = (await withFull.request('GET', `/transactions?walletId=${p.system.id}`, { key: p.key })).body.transactions[0].id as string;
    const entities = `query($r: [_Any!]!) { _service { sdl } _entities(representations: $r) { __typename
      ... on Project { id name } ... on Asset { id symbol } ... on Wallet { id address balances { balance } } ... on Transaction { id amount } ... on Hold { id } } }`;
    const r = [
      { __typename: 'Project', id: String(p.projectId) },
      { __typename: 'Asset', id: p.assetId },
      { __typename: 'Wallet', id: p.customers[0].id },
      { __typename: 'Transaction', id: seed },
      { __typename: 'Hold', id: '00000000-0000-4000-8000-000000000000' },
      { __typename: 'Wallet', id: 'not-a-uuid' },
    ];
    const [a, b] = await Promise.all([raw(withFull, p.key, entities, { r }), raw(withPrebuilt, p.key, entities, { r })]);
    expect(a.body.errors).toBeUndefined();
    expect(a.body.data._entities.filter(Boolean).length).toBe(4);
    expect(b.text).toBe(a.text);
  });

  it('answers a nested read (wallets, balances, transactions) byte for byte as buildSubgraphSchema\'s', async () => {
    const variables = { id: String(p.projectId), first: 5, recent: 3 };
    const [a, b] = await Promise.all([run(withFull, p.key, ProjectWalletsDocument, variables), run(withPrebuilt, p.key, ProjectWalletsDocument, variables)]);
    expect(a.body.errors).toBeUndefined();
    expect(a.body.data?.project?.wallets.edges.length).toBe(3);
    expect(b.text).toBe(a.text);
  });
});

describe('the schema built from the build\'s subgraph SDL, guarded', () => {
  it('is made for @apollo/subgraph 2.14, whose buildSubgraphSchema it repeats: an upgrade must re-read that file', () => {
    const { version } = createRequire(import.meta.url)('@apollo/subgraph/package.json') as { version: string };
    expect(version).toMatch(/^2\.14\./);
  });

  it('refuses an SDL that disagrees with the resolvers, instead of leaving fields on default resolvers', async () => {
    // a field of the code the SDL lacks; then a field of the SDL the code lacks
    const withoutField = sdl.replace(/^(type Project\b[^{]*\{[^}]*?)(\n\s+"[^\n]*)?\n\s+name: String!/m, '$1'); // and its description
    expect(withoutField).not.toBe(sdl);
    await expect(schemaFromSubgraphSdl(withoutField)).rejects.toThrow(/Project\.name missing from the SDL/);
    const withExtraField = sdl.replace(/^(type Project\b[^{]*\{)/m, '$1\n  nickname: String');
    expect(withExtraField).not.toBe(sdl);
    await expect(schemaFromSubgraphSdl(withExtraField)).rejects.toThrow(/Project\.nickname missing from the code/);
  });
});
