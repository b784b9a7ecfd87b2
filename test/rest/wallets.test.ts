import { ISO_MS, UNKNOWN_UUID, UUID_RE, expectStatus, fundedProject, recordStatements, seed, transfer, type FundedProject } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let key: string;
let otherKey: string;
let projectId: number;
let foreignProjectId: number;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('wallets-owner', 'enterprise');
  otherKey = await t.issueKey('wallets-intruder', 'pro');
  projectId = (await expectStatus(t.request('POST', '/projects', { key, body: { name: 'Wallet home' } }), 201)).id;
  foreignProjectId = (await expectStatus(t.request('POST', '/projects', { key: otherKey, body: { name: 'Elsewhere' } }), 201)).id;
});
afterAll(() => t.close());

const createWallet = (type: string, body: Record<string, unknown>, k = key) => t.request('POST', `/wallets/create/${type}`, { key: k, body: { projectId, ...body } });
const newWallet = (type: string, body: Record<string, unknown> = {}, k = key) => expectStatus(createWallet(type, body, k), 201);
const setStatus = (id: string, body: Record<string, unknown>, k = key) => t.request('PUT', `/wallets/status/${id}`, { key: k, body });

/** The owner row's wallet counters (what the quota reads) and the wallets they count. */
async function walletCounts(owner: string): Promise<{ counters: number[]; wallets: number[] }> {
  const [row] = await t.db.query<{ counters: number[]; wallets: number[] }>(
    `SELECT ARRAY[o.customer_wallet_count, o.system_wallet_count]::int[] AS counters,
            ARRAY[(SELECT count(*) FROM wallets w WHERE w.owner_id = o.id AND w.type = 'customer'),
                  (SELECT count(*) FROM wallets w WHERE w.owner_id = o.id AND w.type = 'system')]::int[] AS wallets
       FROM owners o WHERE o.id = $1`,
    [owner],
  );
  return row;
}

const WALLET_FIELDS = ['address', 'created_at', 'id', 'projectId', 'status', 'type', 'updated_at'];

/** `detail`: GET /wallets/{id}, which also names the wallet's group (CONTRACT §29). */
function expectWalletShape(wallet: any, withActivity: boolean, detail = false): void {
  const fields = [...WALLET_FIELDS, ...(withActivity ? ['balance', 'transactions'] : []), ...(detail ? ['groupId'] : [])];
  expect(Object.keys(wallet).sort()).toEqual(fields.sort());
  expect(wallet.id).toMatch(UUID_RE);
  expect(typeof wallet.address).toBe('string');
  expect(['customer', 'system']).toContain(wallet.type);
  expect(['active', 'suspended', 'closed']).toContain(wallet.status);
  expect(Number.isInteger(wallet.projectId)).toBe(true);
  expect(wallet.created_at).toMatch(ISO_MS);
  expect(wallet.updated_at).toMatch(ISO_MS);
  if (!withActivity) return;
  for (const b of wallet.balance) expect(b).toEqual({ account: wallet.address, currency: expect.any(String), balance: expect.any(Number), held: expect.any(Number), available: expect.any(Number), creditLimit: 0, incoming: expect.any(Number) });
  for (const tx of wallet.transactions) {
    expect(tx).toEqual({
      id: expect.stringMatching(UUID_RE),
      amount: expect.any(Number),
      currency: expect.any(String),
      balance: expect.any(Number),
      from: expect.any(String),
      to: expect.any(String),
      date: expect.stringMatching(ISO_MS),
      reverses: null,
      reversedAmount: 0,
      reference: null,
      metadata: {},
    });
  }
}

describe('POST /wallets/create/{type}', () => {
  it('creates an active customer wallet with the given address (201, no balance or transactions)', async () => {
    const res = await createWallet('customer', { address: 'alice@example.com' });
    expect(res.status).toBe(201);
    expectWalletShape(res.body, false);
    expect(res.body).toMatchObject({ address: 'alice@example.com', type: 'customer', status: 'active', projectId });
  });

  it('generates an address when none is given', async () => {
    const [a, b] = [await newWallet('system'), await newWallet('system')];
    expect(a).toMatchObject({ type: 'system', status: 'active' });
    expect(a.address).toMatch(/^wal_[0-9a-f]+$/);
    expect(a.address).not.toBe(b.address);
  });

  it.each([
    ['an unknown type', 'merchant', {}, 'type'],
    ['an address starting with @', 'customer', { address: '@mint' }, 'address'],
    ['an address with a space', 'customer', { address: 'a b' }, 'address'],
    ['an empty address', 'customer', { address: '' }, 'address'],
    ['an address over 128 characters', 'customer', { address: 'a'.repeat(129) }, 'address'],
    ['a numeric address', 'customer', { address: 12 }, 'address'],
    ['a missing projectId', 'customer', { projectId: undefined }, 'projectId'],
    ['a malformed projectId', 'customer', { projectId: 'x' }, 'projectId'],
    ['an unknown field', 'customer', { status: 'active' }, 'status'],
  ])('refuses %s with 400 validation_error naming the field', async (_case, type, body, field) => {
    const res = await createWallet(type, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details.field).toBe(field);
  });

  it('accepts an address of 128 characters using every allowed character', async () => {
    const address = `Aa0._:@-${'z'.repeat(120)}`;
    expect((await newWallet('customer', { address })).address).toBe(address);
  });

  it('answers 404 for an unknown project and for another owner’s', async () => {
    expect((await createWallet('customer', { projectId: 2147483647 })).status).toBe(404);
    const res = await createWallet('customer', { projectId: foreignProjectId });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('refuses an address already used in the project with 409 conflict (across types); another project may use it', async () => {
    await newWallet('customer', { address: 'dup-address' });
    for (const type of ['customer', 'system']) {
      const res = await createWallet(type, { address: 'dup-address' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
    }
    const other = await expectStatus(t.request('POST', '/projects', { key, body: { name: 'Other' } }), 201);
    expect((await createWallet('customer', { address: 'dup-address', projectId: other.id })).status).toBe(201);
    const { counters, wallets } = await walletCounts('wallets-owner'); // a refused create counts nothing
    expect(counters).toEqual(wallets);
  });

  it('enforces system_wallets per owner on the free plan (403), exactly under concurrency', async () => {
    const free = await t.issueKey('wallets-free-system', 'free');
    const project = await expectStatus(t.request('POST', '/projects', { key: free, body: { name: 'Free' } }), 201);
    const results = await Promise.all(Array.from({ length: 6 }, () => createWallet('system', { projectId: project.id }, free)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = results.filter((r) => r.status === 403);
    expect(refused).toHaveLength(4);
    expect(refused[0].body).toEqual({ code: 'quota_exceeded', message: expect.any(String), details: { quota: 'system_wallets', limit: 2 } });
    // the customer quota is separate
    expect((await createWallet('customer', { projectId: project.id }, free)).status).toBe(201);
    expect(await walletCounts('wallets-free-system')).toEqual({ counters: [1, 2], wallets: [1, 2] });
  });

  it('enforces customer_wallets (100 on the free plan), exactly under concurrency', async () => {
    const free = await t.issueKey('wallets-free-customer', 'free');
    const project = await expectStatus(t.request('POST', '/projects', { key: free, body: { name: 'Free' } }), 201);
    for (let batch = 0; batch < 3; batch++) {
      const results = await Promise.all(Array.from({ length: 25 }, () => createWallet('customer', { projectId: project.id }, free)));
      expect(results.every((r) => r.status === 201)).toBe(true);
    }
    // 30 at once for the last 25 places
    const results = await Promise.all(Array.from({ length: 30 }, () => createWallet('customer', { projectId: project.id }, free)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(25);
    const refused = results.filter((r) => r.status === 403);
    expect(refused).toHaveLength(5);
    expect(refused[0].body).toEqual({ code: 'quota_exceeded', message: expect.any(String), details: { quota: 'customer_wallets', limit: 100 } });
    expect(await walletCounts('wallets-free-customer')).toEqual({ counters: [100, 0], wallets: [100, 0] });
  });

  it('counts wallet quotas per owner across projects', async () => {
    const starter = await t.issueKey('wallets-starter', 'starter');
    const projects = [];
    for (let i = 0; i < 2; i++) projects.push(await expectStatus(t.request('POST', '/projects', { key: starter, body: { name: `S${i}` } }), 201));
    for (let i = 0; i < 10; i++) await newWallet('system', { projectId: projects[i % 2].id }, starter);
    expect((await createWallet('system', { projectId: projects[1].id }, starter)).status).toBe(403);
  });
});

describe.each(['customer', 'system'] as const)('GET /wallets/%s', (type) => {
  let listKey: string;
  let p: FundedProject;
  let second: number;
  let ids: string[];
  beforeAll(async () => {
    listKey = await t.issueKey(`wallets-list-${type}`, 'enterprise');
    p = await fundedProject(t, listKey, { customers: 0, systemBalance: '0' });
    second = (await expectStatus(t.request('POST', '/projects', { key: listKey, body: { name: 'Second' } }), 201)).id;
    ids = [];
    for (const project of [p.projectId, second, p.projectId, second, p.projectId]) {
      ids.push((await newWallet(type, { projectId: project }, listKey)).id);
    }
    // a wallet of the other type never shows
    await newWallet(type === 'customer' ? 'system' : 'customer', { projectId: p.projectId }, listKey);
  });

  it('lists the caller’s wallets of that type oldest first, with balances and recent transactions', async () => {
    const res = await t.request('GET', `/wallets/${type}`, { key: listKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['pagination', 'wallets']);
    const expected = type === 'system' ? [p.system.id, ...ids] : ids;
    expect(res.body.wallets.map((w: any) => w.id)).toEqual(expected);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: expected.length, totalPages: 1 });
    for (const wallet of res.body.wallets) {
      expectWalletShape(wallet, true);
      expect(wallet.type).toBe(type);
    }
    const first = res.body.wallets.find((w: any) => w.id === ids[0]);
    expect(first.balance).toEqual([{ account: first.address, currency: 'PTS', balance: 0, held: 0, available: 0, creditLimit: 0, incoming: 0 }]);
    expect(first.transactions).toEqual([]);
    // a project without assets has no balances yet
    expect(res.body.wallets.find((w: any) => w.id === ids[1]).balance).toEqual([]);
  });

  it('filters by projectId and pages; a page beyond the end is empty', async () => {
    const res = await t.request('GET', `/wallets/${type}?projectId=${second}&limit=1&page=2`, { key: listKey });
    expect(res.body.wallets.map((w: any) => w.id)).toEqual([ids[3]]);
    expect(res.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    const beyond = await t.request('GET', `/wallets/${type}?projectId=${second}&page=3&limit=1`, { key: listKey });
    expect(beyond.body).toEqual({ wallets: [], pagination: { page: 3, limit: 1, total: 2, totalPages: 2 } });
  });

  it('never shows another owner’s wallets; their projectId answers 404 like an unknown one', async () => {
    const res = await t.request('GET', `/wallets/${type}?limit=100`, { key: otherKey });
    expect(res.body.wallets.filter((w: any) => ids.includes(w.id))).toEqual([]);
    expect((await t.request('GET', `/wallets/${type}?projectId=${second}`, { key: otherKey })).status).toBe(404);
    expect((await t.request('GET', `/wallets/${type}?projectId=2147483647`, { key: listKey })).status).toBe(404);
  });

  it('reads balances and transactions of a whole page in a constant number of statements', async () => {
    const recorder = recordStatements(t);
    const counted = async (limit: number) => {
      recorder.reset();
      const res = await expectStatus(t.request('GET', `/wallets/${type}?limit=${limit}`, { key: listKey }), 200);
      return { wallets: res.wallets.length, statements: recorder.statements.length };
    };
    const one = await counted(1);
    const all = await counted(100);
    expect(one.wallets).toBe(1);
    expect(all.wallets).toBeGreaterThan(4);
    expect(all.statements).toBe(one.statements);
    // the page and its count, then balances and recent transactions
    expect(one.statements).toBe(4);
  });

  it.each(['projectId=x', 'projectId=0', 'page=0', 'page=1.5', 'limit=0', 'limit=101', 'type=customer'])('refuses ?%s with 400', async (query) => {
    const res = await t.request('GET', `/wallets/${type}?${query}`, { key: listKey });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });
});

describe('GET /wallets/{id}', () => {
  it('answers the wallet with one balance per currency (zero included) and its 20 newest transactions', async () => {
    const p = await fundedProject(t, key, { symbol: 'PTS', fractions: 2, customers: 1, systemBalance: '0' });
    await expectStatus(t.request('POST', '/assets', { key, body: { name: 'Gems', symbol: 'GEM', fractions: 0, projectId: p.projectId } }), 201);
    for (let i = 1; i <= 24; i++) await seed(t, p, p.system.id, 1.25);
    await transfer(t, p, p.system.id, p.customers[0].id, 2.5);
    const res = await t.request('GET', `/wallets/${p.system.id}`, { key });
    expect(res.status).toBe(200);
    expectWalletShape(res.body, true, true);
    expect(res.body.groupId).toBeNull();
    expect(res.body.balance).toEqual([
      { account: p.system.address, currency: 'PTS', balance: 27.5, held: 0, available: 27.5, creditLimit: 0, incoming: 0 },
      { account: p.system.address, currency: 'GEM', balance: 0, held: 0, available: 0, creditLimit: 0, incoming: 0 },
    ]);
    expect(res.body.transactions).toHaveLength(20);
    expect(res.body.transactions[0]).toMatchObject({ amount: 2.5, balance: 27.5, from: p.system.address, to: p.customers[0].address, currency: 'PTS' });
    expect(res.body.transactions[1]).toMatchObject({ amount: 1.25, balance: 30, from: '@mint', to: p.system.address });
    const dates = res.body.transactions.map((tx: any) => Date.parse(tx.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    const balances = res.body.transactions.map((tx: any) => tx.balance);
    expect(balances.slice(1)).toEqual(Array.from({ length: 19 }, (_, i) => 30 - i * 1.25));
    const customer = await t.request('GET', `/wallets/${p.customers[0].id}`, { key });
    expect(customer.body.balance).toEqual([
      { account: p.customers[0].address, currency: 'PTS', balance: 2.5, held: 0, available: 2.5, creditLimit: 0, incoming: 0 },
      { account: p.customers[0].address, currency: 'GEM', balance: 0, held: 0, available: 0, creditLimit: 0, incoming: 0 },
    ]);
    expect(customer.body.transactions).toHaveLength(1);
  });

  it('refuses a malformed id with 400; answers 404 for unknown and another owner’s wallet', async () => {
    expect((await t.request('GET', '/wallets/not-a-uuid', { key })).status).toBe(400);
    expect((await t.request('GET', `/wallets/${UNKNOWN_UUID}`, { key })).status).toBe(404);
    const foreign = await newWallet('customer', { projectId: foreignProjectId }, otherKey);
    const res = await t.request('GET', `/wallets/${foreign.id}`, { key });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('PUT /wallets/status/{id}', () => {
  it('moves active ⇄ suspended and answers the wallet without balance or transactions', async () => {
    const wallet = await newWallet('customer');
    await new Promise((r) => setTimeout(r, 5));
    const suspended = await setStatus(wallet.id, { projectId, status: 'suspended' });
    expect(suspended.status).toBe(200);
    expectWalletShape(suspended.body, false);
    expect(suspended.body).toMatchObject({ id: wallet.id, status: 'suspended', created_at: wallet.created_at });
    expect(Date.parse(suspended.body.updated_at)).toBeGreaterThan(Date.parse(wallet.updated_at));
    expect((await setStatus(wallet.id, { projectId, status: 'active' })).body.status).toBe('active');
  });

  it('treats the current status as a 200 no-op', async () => {
    const wallet = await newWallet('customer');
    const res = await setStatus(wallet.id, { projectId, status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(wallet);
  });

  it('closes an empty wallet from active or suspended; closed is final (409 conflict), closed again is a no-op', async () => {
    const [a, b] = [await newWallet('customer'), await newWallet('customer')];
    expect((await setStatus(a.id, { projectId, status: 'closed' })).body.status).toBe('closed');
    await expectStatus(setStatus(b.id, { projectId, status: 'suspended' }), 200);
    expect((await setStatus(b.id, { projectId, status: 'closed' })).body.status).toBe('closed');
    for (const status of ['active', 'suspended']) {
      const res = await setStatus(a.id, { projectId, status });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
    }
    expect((await setStatus(a.id, { projectId, status: 'closed' })).status).toBe(200);
  });

  it('refuses to close a wallet holding funds (409 wallet_not_empty); emptied, it closes', async () => {
    const p = await fundedProject(t, key, { customers: 1, systemBalance: '10' });
    const [customer] = p.customers;
    await transfer(t, p, p.system.id, customer.id, 3);
    for (const id of [customer.id, p.system.id]) {
      const res = await setStatus(id, { projectId: p.projectId, status: 'closed' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('wallet_not_empty');
    }
    await expectStatus(setStatus(customer.id, { projectId: p.projectId, status: 'suspended' }), 200);
    expect((await setStatus(customer.id, { projectId: p.projectId, status: 'closed' })).body.code).toBe('wallet_not_empty');
    await expectStatus(setStatus(customer.id, { projectId: p.projectId, status: 'active' }), 200);
    await transfer(t, p, customer.id, p.system.id, 3);
    expect((await setStatus(customer.id, { projectId: p.projectId, status: 'closed' })).body.status).toBe('closed');
  });

  it('never lets a close and a credit both succeed when they race: whichever wins, the other gets its 409', async () => {
    const p = await fundedProject(t, key, { customers: 0, systemBalance: '100' });
    const seen = new Set<string>();
    // Race them on fresh wallets until each ordering has happened (the one sent first usually wins,
    // so the order alternates), within a bound: a test that saw one ordering only proves half.
    for (let round = 0; round < 60 && seen.size < 2; round++) {
      const wallet = await newWallet('customer', { projectId: p.projectId });
      const credit = () => t.request('POST', '/transactions', { key, body: { amount: 1, currency: p.symbol, from: p.system.id, to: wallet.id, projectId: p.projectId } });
      const close = () => setStatus(wallet.id, { projectId: p.projectId, status: 'closed' });
      const [credited, closed] = round % 2 === 0 ? await Promise.all([credit(), close()]) : (await Promise.all([close(), credit()])).reverse();
      const after = await expectStatus(t.request('GET', `/wallets/${wallet.id}`, { key }), 200);
      if (credited.status === 201) {
        // the credit won: the wallet holds it, so the close is refused
        expect([closed.status, closed.body.code, after.status, after.balance[0].balance]).toEqual([409, 'wallet_not_empty', 'active', 1]);
        seen.add('credit first');
      } else {
        // the close won: the credit finds a closed wallet and posts nothing
        expect([credited.status, credited.body.code, closed.status, after.status, after.balance[0].balance]).toEqual([409, 'wallet_inactive', 200, 'closed', 0]);
        seen.add('close first');
      }
    }
    expect([...seen].sort()).toEqual(['close first', 'credit first']);
  });

  it('answers 404 when projectId is not the wallet’s project, for unknown and for another owner’s wallet', async () => {
    const wallet = await newWallet('customer');
    const other = await expectStatus(t.request('POST', '/projects', { key, body: { name: 'Not its project' } }), 201);
    expect((await setStatus(wallet.id, { projectId: other.id, status: 'suspended' })).status).toBe(404);
    expect((await setStatus(UNKNOWN_UUID, { projectId, status: 'suspended' })).status).toBe(404);
    const foreign = await newWallet('customer', { projectId: foreignProjectId }, otherKey);
    expect((await setStatus(foreign.id, { projectId: foreignProjectId, status: 'suspended' })).status).toBe(404);
    expect((await t.request('GET', `/wallets/${foreign.id}`, { key: otherKey })).body.status).toBe('active');
  });

  it.each([
    ['an unknown status', { status: 'frozen' }, 'status'],
    ['a missing status', { status: undefined }, 'status'],
    ['a missing projectId', { projectId: undefined }, 'projectId'],
    ['an unknown field', { address: 'x' }, 'address'],
  ])('refuses %s with 400', async (_case, body, field) => {
    const wallet = await newWallet('customer');
    const res = await setStatus(wallet.id, { projectId, status: 'suspended', ...body });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe(field);
  });

  it('refuses a malformed id with 400', async () => {
    expect((await setStatus('1234', { projectId, status: 'active' })).status).toBe(400);
  });
});
