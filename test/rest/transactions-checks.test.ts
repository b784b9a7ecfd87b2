import { expectStatus, fundedProject, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let p: FundedProject;
let other: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  const key = await t.issueKey('checks', 'enterprise');
  p = await fundedProject(t, key, { customers: 2, systemBalance: '100' });
  other = await fundedProject(t, await t.issueKey('checks-other', 'enterprise'), { customers: 1 });
});
afterAll(() => t.close());

const transfer = (body: Record<string, unknown>) =>
  t.request('POST', '/transactions', { key: p.key, body: { currency: p.symbol, projectId: p.projectId, from: p.system.id, to: p.customers[0].id, amount: 1, ...body } });

describe('POST /transactions: fields (400) are checked before existence (404)', () => {
  it('refuses too many decimals with 400 even when a wallet is unknown', async () => {
    const res = await transfer({ amount: 1.005, to: 'nobody' });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('amount');
  });

  it('refuses the same unknown reference as sender and receiver with 400', async () => {
    const res = await transfer({ from: 'ghost', to: 'ghost' });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('to');
  });

  it('still answers 404 for an unknown wallet when the fields are valid', async () => {
    expect((await transfer({ to: 'nobody' })).status).toBe(404);
  });
});

describe('GET /transactions with a wallet id and a projectId', () => {
  it('answers 404 when the wallet is not in that project (another owner’s or a missing one)', async () => {
    const wallet = p.customers[0].id;
    await expectStatus(t.request('GET', `/transactions?walletId=${wallet}&projectId=${p.projectId}`, { key: p.key }), 200);
    for (const projectId of [other.projectId, 999999]) {
      const res = await t.request('GET', `/transactions?walletId=${wallet}&projectId=${projectId}`, { key: p.key });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('GET /transactions far beyond the data', () => {
  it('answers an empty page, even where the offset passes a 32-bit integer', async () => {
    const res = await t.request('GET', `/transactions?walletId=${p.customers[0].id}&page=21474837&limit=100`, { key: p.key });
    expect(res.status).toBe(200);
    expect(res.body.transactions).toEqual([]);
    expect(res.body.pagination.page).toBe(21474837);
  });
});
