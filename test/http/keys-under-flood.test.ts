import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * CONTRACT §18, keys under flood, over HTTP: random keys sent as fast as the service answers
 * them; the `x-sql-statements` header counts what each request cost the database.
 */
let t: TestApp;
let known: string;
beforeAll(async () => {
  t = await startTestApp();
  known = await t.issueKey('flooded-owner');
});
afterAll(() => t.close());

const statementsOf = async (key: string): Promise<{ status: number; statements: number }> => {
  const res = await t.request('GET', '/user/plan', { key });
  return { status: res.status, statements: Number(res.headers.get('x-sql-statements')) };
};
const randomKey = () => `lk_${randomBytes(32).toString('base64url')}`;

describe('api_key under a flood of random keys', () => {
  it('answers each 401, and the same wrong key again costs no statement', async () => {
    const wrong = randomKey();
    expect(await statementsOf(wrong)).toEqual({ status: 401, statements: 1 });
    expect(await statementsOf(wrong)).toEqual({ status: 401, statements: 0 });
  });

  it('costs a known key in use at most one lookup per 5 s while random keys keep coming', async () => {
    expect((await statementsOf(known)).status).toBe(200);
    const started = Date.now();
    let lookups = 0;
    let random = 0;
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => statementsOf(randomKey())));
      expect(answers.every((a) => a.status === 401)).toBe(true);
      random += answers.length;
      const mine = await statementsOf(known);
      expect(mine.status).toBe(200);
      lookups += mine.statements;
    }
    const elapsed = Date.now() - started;
    console.log(`${random} random keys over HTTP in ${elapsed} ms; lookups of the known key meanwhile: ${lookups}`);
    expect(lookups).toBeLessThanOrEqual(Math.ceil(elapsed / 5_000));
  });
});
