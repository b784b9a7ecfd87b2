import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { PreparedPlans } from '../../../src/graphql/sql-plan/prepared.js';

describe('PreparedPlans (names for the SQL plans a client keeps sending)', () => {
  it('names a text from its third sighting on, and always the same name', () => {
    const plans = new PreparedPlans();
    expect(plans.nameOf('SELECT 1')).toBeUndefined();
    expect(plans.nameOf('SELECT 1')).toBeUndefined();
    const name = plans.nameOf('SELECT 1');
    expect(name).toMatch(/^ledger_sql_plan_\d+$/);
    expect(plans.nameOf('SELECT 1')).toBe(name);
    for (let i = 0; i < 2; i++) plans.nameOf('SELECT 2');
    expect(plans.nameOf('SELECT 2')).not.toBe(name);
  });

  const sightings = (plans: PreparedPlans, sql: string) => [plans.nameOf(sql), plans.nameOf(sql), plans.nameOf(sql)][2];

  it('names 32 texts at once at most: the least recently used loses its name, none keeps a slot for good (CONTRACT §18)', () => {
    const plans = new PreparedPlans();
    const named = new Map<string, string | undefined>();
    for (let t = 0; t < 32; t++) named.set(`SELECT ${t}`, sightings(plans, `SELECT ${t}`));
    expect(new Set(named.values()).size).toBe(32);
    expect(plans.nameOf('SELECT 0')).toBe(named.get('SELECT 0')); // used again: now the most recent
    const newcomer = sightings(plans, 'SELECT 32');
    expect(newcomer).toMatch(/^ledger_sql_plan_\d+$/);
    expect([...named.values()]).not.toContain(newcomer);
    expect(plans.nameOf('SELECT 0')).toBe(named.get('SELECT 0'));
    // SELECT 1, the least recently used, lost its name: counted afresh, then named anew, never with a name another text had
    expect(plans.nameOf('SELECT 1')).toBeUndefined();
    expect(plans.nameOf('SELECT 1')).toBeUndefined();
    const renamed = plans.nameOf('SELECT 1');
    expect(renamed).toBeDefined();
    expect([...named.values(), newcomer]).not.toContain(renamed);
  });

  it('bounds the texts it names and counts by their bytes', () => {
    const plans = new PreparedPlans({ names: 32, namedBytes: 64 * 1024, candidateBytes: 64 * 1024 });
    const long = (t: number) => `SELECT ${t} ${'x'.repeat(20_000)}`;
    const names = [0, 1, 2, 3].map((t) => sightings(plans, long(t)));
    expect(names.every((n) => n !== undefined)).toBe(true);
    // four texts of 20 KB do not fit in 64 KiB with the newest: the oldest lost its name
    expect(plans.nameOf(long(3))).toBe(names[3]);
    expect(plans.nameOf(long(0))).toBeUndefined();
    // sightings, too: a fourth 20 KB text pushes out the first one counted
    for (let t = 10; t < 14; t++) plans.nameOf(long(t));
    expect([plans.nameOf(long(10)), plans.nameOf(long(10))]).toEqual([undefined, undefined]);
  });
});

describe('a planned read sent again and again', () => {
  let a: TestApp;
  let b: TestApp;
  let f: FundedProject;
  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.databaseUrl, graphqlSqlPlans: false });
    f = await fundedProject(a, await a.issueKey('prepared-owner', 'pro'), { customers: 3 });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('runs as a prepared statement from its third request on, answering exactly what the resolvers answer', async () => {
    const names: (string | undefined)[] = [];
    const query = a.db.query.bind(a.db);
    a.db.query = ((text: string, params?: unknown[], name?: string) => {
      if (text.includes('"_entities"')) names.push(name);
      return query(text, params, name);
    }) as typeof a.db.query;
    const document = `query E($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { id address balances { currency balance held available } } } }`;
    const variables = { r: [...f.customers, f.system].map((w) => ({ __typename: 'Wallet', id: w.id })) };
    const expected = await b.graphql(f.key, document, variables);
    for (let i = 0; i < 4; i++) {
      const answer = await a.graphql(f.key, document, variables);
      expect(answer.text).toBe(expected.text);
    }
    expect(names.map((n) => n !== undefined)).toEqual([false, false, true, true]);
  });
});
