import { fundedProject, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { IdempotencyService, fingerprint } from '../../src/domain/idempotency/idempotency.service.js';
import { IdempotencyRepository } from '../../src/domain/idempotency/idempotency.repository.js';

let t: TestApp;
let p: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  p = await fundedProject(t, await t.issueKey('gql-multi', 'enterprise'), { customers: 2, systemBalance: '100' });
});
afterAll(() => t.close());

const balance = async (walletId: string) => {
  const [row] = await t.db.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1`, [walletId]);
  return row ? Number(row.amount) : 0;
};

describe('one GraphQL request with several postings under an Idempotency-Key header', () => {
  const document = (a: string, b: string) => `mutation {
    a: transfer(input: { projectId: "${p.projectId}", currency: "${p.symbol}", from: "${p.system.id}", to: "${a}", amount: "1" }) { id balance }
    b: transfer(input: { projectId: "${p.projectId}", currency: "${p.symbol}", from: "${p.system.id}", to: "${b}", amount: "7" }) { id balance }
  }`;

  it('posts each of them once, and a replay posts nothing', async () => {
    const [c1, c2] = p.customers;
    const headers = { 'idempotency-key': 'gql-multi-1' };
    const first = await t.graphql(p.key, document(c1.id, c2.id), undefined, headers);
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.a.id).not.toBe(first.body.data.b.id);
    expect([await balance(c1.id), await balance(c2.id)]).toEqual([100, 700]);
    const again = await t.graphql(p.key, document(c1.id, c2.id), undefined, headers);
    expect(again.body).toEqual(first.body);
    expect([await balance(c1.id), await balance(c2.id)]).toEqual([100, 700]);
  });
});

describe('IdempotencyService', () => {
  const service = () => new IdempotencyService(new IdempotencyRepository(t.db));

  it('does not store a GraphQL answer that carries an internal_error (the key is released)', async () => {
    const reply = { status: 200, body: { data: null, errors: [{ message: 'internal error', extensions: { code: 'internal_error', details: {} } }] } };
    await service().run('owner-x', 'internal', fingerprint('POST', '/graphql', {}), async () => reply);
    expect(await t.db.query(`SELECT 1 FROM idempotency_keys WHERE owner_id = 'owner-x' AND key = 'internal'`)).toHaveLength(0);
  });

  it('fences a holder whose lease was taken over: its late answer neither overwrites nor releases the new one', async () => {
    const print = fingerprint('POST', '/x', { n: 1 });
    let finishSlow!: () => void;
    const slowStarted = new Promise<void>((started) => {
      void service().run('owner-y', 'lease', print, async () => {
        started();
        await new Promise<void>((resolve) => (finishSlow = resolve));
        return { status: 201, body: { who: 'slow' } };
      });
    });
    await slowStarted;
    await t.db.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE owner_id = 'owner-y' AND key = 'lease'`);
    const fast = await service().run('owner-y', 'lease', print, async () => ({ status: 201, body: { who: 'fast' } }));
    expect(fast.body).toEqual({ who: 'fast' });
    finishSlow();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [row] = await t.db.query<{ response: unknown }>(`SELECT response FROM idempotency_keys WHERE owner_id = 'owner-y' AND key = 'lease'`);
    expect(row.response).toEqual({ who: 'fast' });
    const replay = await service().run('owner-y', 'lease', print, async () => ({ status: 201, body: { who: 'third' } }));
    expect(replay).toMatchObject({ replayed: true, body: { who: 'fast' } });
  });
});
