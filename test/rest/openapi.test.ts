import { validate } from '@readme/openapi-parser';
import { EVENT_TYPES } from '../../src/domain/outbox/event-type.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let spec: any;
beforeAll(async () => {
  t = await startTestApp();
  spec = (await t.request('GET', '/openapi.json')).body;
});
afterAll(() => t.close());

const COMPONENTS = '#/components/schemas/';
/** A schema, or the component its `$ref` names. */
const deref = (schema: any) => (schema?.$ref ? spec.components.schemas[schema.$ref.slice(COMPONENTS.length)] : schema);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operationsOf = (items: Record<string, any>) =>
  Object.entries(items).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ where: `${m} ${path}`, operation: item[m] })));

const SPEC_OPERATIONS = [
  'post /projects', 'get /projects', 'get /projects/{id}', 'put /projects/{id}',
  'post /assets', 'get /assets', 'get /assets/{id}', 'put /assets/{id}', 'delete /assets/{id}',
  'post /wallets/create/{type}', 'get /wallets/customer', 'get /wallets/system', 'get /wallets/{id}', 'put /wallets/status/{id}',
  'post /transactions', 'post /transactions/seed', 'get /transactions',
  'get /user/plan', 'post /webhook',
  // part two (CONTRACT §10–§13)
  'post /holds', 'get /holds', 'get /holds/{id}', 'post /holds/{id}/capture', 'post /holds/{id}/void',
  'post /transactions/{id}/reverse', 'post /transactions/batch',
  // §15
  'get /wallets/{id}/lots',
  // §16 outbound webhooks
  'post /webhook-endpoints', 'get /webhook-endpoints', 'delete /webhook-endpoints/{id}', 'get /webhook-endpoints/{id}/deliveries',
];

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document, version 1, served without auth', async () => {
    const res = await t.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1');
  });

  it('documents every operation of the interface with its body, success and error responses', async () => {
    const { body } = await t.request('GET', '/openapi.json');
    for (const operation of SPEC_OPERATIONS) {
      const [method, path] = operation.split(' ');
      const doc = body.paths[path]?.[method];
      expect({ operation, documented: Boolean(doc) }).toEqual({ operation, documented: true });
      const statuses = Object.keys(doc.responses);
      expect(statuses.some((s) => s.startsWith('2'))).toBe(true);
      expect(statuses).toEqual(expect.arrayContaining(['401', '429', '500']));
      if (method === 'post' || method === 'put') {
        expect(deref(doc.requestBody.content['application/json'].schema).type).toBe('object');
        expect(statuses).toEqual(expect.arrayContaining(['400', '413', '415']));
      }
    }
  });

  it('documents key management behind admin_token (CONTRACT §17)', async () => {
    const { body } = await t.request('GET', '/openapi.json');
    const keys = body.paths['/admin/api-keys'];
    const one = body.paths['/admin/api-keys/{id}'];
    for (const doc of [keys?.post, keys?.get, one?.delete]) {
      expect(doc?.security).toEqual([{ adminToken: [] }]);
      expect(Object.keys(doc.responses)).toEqual(expect.arrayContaining(['400', '401', '404']));
    }
    expect(deref(keys.post.responses['201'].content['application/json'].schema).required).toEqual(expect.arrayContaining(['api_key', 'id', 'owner', 'plan_code']));
    expect(keys.get.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'owner', in: 'query', required: true })]));
    const listed = deref(deref(keys.get.responses['200'].content['application/json'].schema).properties.keys.items);
    expect(Object.keys(listed.properties).sort()).toEqual(['created_at', 'id', 'owner', 'plan_code', 'prefix']);
    expect(one.delete.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
  });

  it('documents expiresAfterSeconds on assets and the Lot shape (CONTRACT §15)', async () => {
    const { body } = await t.request('GET', '/openapi.json');
    const put = deref(body.paths['/assets/{id}'].put.requestBody.content['application/json'].schema);
    expect(Object.keys(put.properties)).toEqual(expect.arrayContaining(['name', 'symbol', 'projectId', 'expiresAfterSeconds']));
    expect(put.required ?? []).not.toContain('projectId');
    const lots = body.paths['/wallets/{id}/lots'].get;
    expect(lots.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['id', 'currency']));
    const lot = deref(lots.responses['200'].content['application/json'].schema.properties.lots.items);
    expect(Object.keys(lot.properties).sort()).toEqual(['amount', 'created_at', 'expires_at', 'remaining']);
    const asset = deref(body.paths['/assets/{id}'].get.responses['200'].content['application/json'].schema);
    expect(Object.keys(asset.properties)).toContain('expiresAfterSeconds');
  });

  it('documents outbound webhook endpoints: the secret only in the creation answer, the seven types, the deliveries log (CONTRACT §16)', async () => {
    const { body } = await t.request('GET', '/openapi.json');
    const json = (doc: any, status: string) => deref(doc.responses[status].content['application/json'].schema);
    const post = body.paths['/webhook-endpoints'].post;
    const request = deref(post.requestBody.content['application/json'].schema);
    expect(Object.keys(request.properties).sort()).toEqual(['projectId', 'types', 'url']);
    expect(request.properties.types.items.enum).toHaveLength(9); // the seven of §16, balance.threshold_crossed (§20) and hold.maturity_refused (§26)
    expect(Object.keys(json(post, '201').properties).sort()).toEqual(['created_at', 'id', 'projectId', 'secret', 'types', 'url']);
    const listed = deref(json(body.paths['/webhook-endpoints'].get, '200').properties.endpoints.items);
    expect(Object.keys(listed.properties).sort()).toEqual(['created_at', 'id', 'projectId', 'types', 'url']);
    expect(body.paths['/webhook-endpoints'].get.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'projectId', in: 'query', required: true })]));
    expect(json(body.paths['/webhook-endpoints/{id}'].delete, '200').required).toEqual(['id', 'deleted']);
    const delivery = deref(json(body.paths['/webhook-endpoints/{id}/deliveries'].get, '200').properties.deliveries.items);
    expect(Object.keys(delivery.properties).sort()).toEqual(['attempt', 'created_at', 'error', 'eventId', 'id', 'responseStatus', 'status']);
    for (const doc of [post, body.paths['/webhook-endpoints'].get, body.paths['/webhook-endpoints/{id}'].delete, body.paths['/webhook-endpoints/{id}/deliveries'].get]) {
      expect(Object.keys(doc.responses)).toEqual(expect.arrayContaining(['400', '401', '404']));
    }
    expect(Object.keys(post.responses)).toContain('403'); // at most 20 endpoints per project (CONTRACT §18)
  });

  it('has no dangling references: every $ref names a component', async () => {
    const refs = [...JSON.stringify(spec).matchAll(/"\$ref":"([^"]+)"/g)].map(([, ref]) => ref);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) expect({ ref, known: ref.startsWith(COMPONENTS) && ref.slice(COMPONENTS.length) in spec.components.schemas }).toEqual({ ref, known: true });
  });

  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser: the 3.1 schema, refs, path parameters, unique operationIds)', async () => {
    await expect(validate(structuredClone(spec))).resolves.toBeDefined();
  });

  it('names every operation, webhooks included, with a unique camelCase operationId', () => {
    const operations = [...operationsOf(spec.paths), ...operationsOf(spec.webhooks)];
    expect(operations.length).toBeGreaterThan(40);
    for (const { where, operation } of operations) expect({ where, operationId: operation.operationId }).toEqual({ where, operationId: expect.stringMatching(/^[a-z][A-Za-z]+$/) });
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(spec.paths['/transactions'].post.operationId).toBe('createTransaction');
    expect(spec.paths['/wallets/{id}'].get.operationId).toBe('getWallet');
    expect(spec.paths['/transactions'].get.operationId).toBe('listWalletTransactions');
  });

  it('keeps the named request and response schemas under components, referenced, not copied', () => {
    const schemas = spec.components.schemas;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['Error', 'Transaction', 'Wallet', 'Project', 'Asset', 'Hold', 'Pagination', 'TransferRequest', 'CreateProjectRequest', 'TransactionResult']));
    expect(spec.paths['/transactions'].post.requestBody.content['application/json'].schema).toEqual({ $ref: `${COMPONENTS}TransferRequest` });
    expect(spec.paths['/wallets/create/{type}'].post.responses['201'].content['application/json'].schema).toEqual({ $ref: `${COMPONENTS}Wallet` });
    expect(schemas.TransactionResult.properties.transaction).toEqual({ $ref: `${COMPONENTS}Transaction` });
    expect(schemas.TransferRequest.required).toEqual(expect.arrayContaining(['amount', 'currency', 'from', 'to', 'projectId']));
    // one copy of each: a named schema's fields appear only in its component
    const copies = JSON.stringify({ paths: spec.paths, webhooks: spec.webhooks }).split('"reversedAmount"').length - 1;
    expect(copies).toBe(0);
  });

  it('documents each outbound event body under webhooks with the Standard Webhooks headers (CONTRACT §16)', () => {
    expect(Object.keys(spec.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const data = { transaction: `${COMPONENTS}Transaction`, hold: `${COMPONENTS}Hold`, wallet: `${COMPONENTS}Wallet`, points: `${COMPONENTS}Transaction`, balance: `${COMPONENTS}BalanceCrossing` };
    for (const type of EVENT_TYPES) {
      const post = spec.webhooks[type].post;
      expect(post.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      const body = deref(post.requestBody.content['application/json'].schema);
      expect(body.required).toEqual(['id', 'type', 'created_at', 'data']);
      expect(body.properties.type.const).toBe(type);
      // hold.captured says whether it matured; hold.maturity_refused carries {hold, code} (CONTRACT §26)
      const special: Record<string, string> = { 'hold.captured': `${COMPONENTS}CapturedHold`, 'hold.maturity_refused': `${COMPONENTS}MaturityRefusal` };
      expect(body.properties.data).toEqual({ $ref: special[type] ?? data[type.split('.')[0] as keyof typeof data] });
      expect(Object.keys(post.responses)).toEqual(['2XX']);
    }
  });

  it('documents dryRun on the six posting operations: the query parameter and the 200 answer (CONTRACT §24)', async () => {
    const { body } = await t.request('GET', '/openapi.json');
    const posting = ['/transactions', '/transactions/seed', '/transactions/batch', '/transactions/{id}/reverse', '/holds', '/holds/{id}/capture'];
    for (const path of posting) {
      const doc = body.paths[path].post;
      expect({ path, parameter: doc.parameters.find((p: { name: string }) => p.name === 'dryRun') }).toEqual({
        path,
        parameter: { name: 'dryRun', in: 'query', required: false, schema: expect.objectContaining({ type: 'string', enum: ['true', 'false'] }) },
      });
      const created = deref(doc.responses['201'].content['application/json'].schema);
      const dry = doc.responses['200'].content['application/json'].schema;
      expect(dry.properties).toEqual({ ...created.properties, dryRun: expect.objectContaining({ const: true }) });
      expect(dry.required).toEqual(expect.arrayContaining([...created.required, 'dryRun']));
    }
    expect(body.paths['/holds/{id}/void'].post.parameters.map((p: { name: string }) => p.name)).not.toContain('dryRun');
  });
});
