import { expectStatus, fundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(() => t.close());
it('debug', async () => {
  const p = await fundedProject(t, { owner: 'dbg' }, { customers: 2, fund: 10 });
  const g = (await expectStatus(t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: p.projectId, name: 'a' } }), 201)).group;
  const c = (await expectStatus(t.request('POST', '/wallet-groups', { key: p.key, body: { projectId: p.projectId, name: 'b', parentId: g.id } }), 201)).group;
  const r = await t.request('PUT', `/wallet-groups/${c.id}/wallets/${p.customers[0].id}`, { key: p.key, body: { projectId: p.projectId } });
  const d = await t.request('DELETE', `/wallet-groups/${c.id}`, { key: p.key });
  console.log(d.status, JSON.stringify(await t.db.query('SELECT * FROM wallet_group_balances')));
  const x = await t.request('DELETE', `/wallet-groups/${c.id}/wallets/${p.customers[0].id}`, { key: p.key, body: { projectId: p.projectId } });
  console.log(x.status, JSON.stringify(r.body), JSON.stringify(await t.db.query('SELECT * FROM wallet_group_balances')), JSON.stringify(await t.db.query('SELECT id, path, wallets FROM wallet_groups')));
});
