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

  it('names 32 texts at most; the others run unnamed, the named ones keep their names', () => {
    const plans = new PreparedPlans();
    const named = new Map<string, string | undefined>();
    for (let t = 0; t < 40; t++) {
      const sql = `SELECT ${t}`;
      for (let i = 0; i < 3; i++) named.set(sql, plans.nameOf(sql));
    }
    const names = [...named.values()].filter((n) => n !== undefined);
    expect(names).toHaveLength(32);
    expect(new Set(names).size).toBe(32);
    expect(plans.nameOf('SELECT 0')).toBe(named.get('SELECT 0'));
    expect(plans.nameOf('SELECT 39')).toBeUndefined();
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
