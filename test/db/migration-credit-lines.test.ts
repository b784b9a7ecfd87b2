import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../support/database.js';

/**
 * The balances CHECK after Migration20261208110000_credit_lines: `amount − held ≥ −credit_bound`,
 * `credit_bound ≥ credit_limit ≥ 0`, `held ≥ 0`. Without a line it is exactly the old pair
 * (`amount ≥ 0`, `held ≤ amount`): the row itself refuses going below zero.
 */
let client: pg.Client;
let project = 0;
const asset = randomUUID();

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  project = (await client.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'checked') RETURNING id`)).rows[0].id;
  await client.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $2, 'o', 'P', 'PTS', 0)`, [asset, project]);
});
afterAll(() => client.end());

async function row(values: { amount: number; held?: number; limit?: number; bound?: number }): Promise<string> {
  const wallet = randomUUID();
  await client.query(`INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $2, 'o', $3, 'customer')`, [wallet, project, wallet]);
  try {
    await client.query(`INSERT INTO balances (wallet_id, asset_id, project_id, amount, held, credit_limit, credit_bound) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      wallet, asset, project, values.amount, values.held ?? 0, values.limit ?? 0, values.bound ?? 0,
    ]);
    return 'stored';
  } catch (error) {
    return (error as { constraint?: string }).constraint ?? String(error);
  }
}

describe('the balances CHECK with credit lines', () => {
  it('without a line: never below zero, held never above the balance', async () => {
    expect(await row({ amount: 0 })).toBe('stored');
    expect(await row({ amount: -1 })).toBe('balances_held_check');
    expect(await row({ amount: 5, held: 6 })).toBe('balances_held_check');
    expect(await row({ amount: 5, held: -1 })).toBe('balances_held_check');
  });

  it('with a line: down to −credit_bound, which is at least the limit', async () => {
    expect(await row({ amount: -5, limit: 5, bound: 5 })).toBe('stored');
    expect(await row({ amount: -6, limit: 5, bound: 5 })).toBe('balances_held_check');
    expect(await row({ amount: 0, held: 5, limit: 5, bound: 5 })).toBe('stored');
    // a line lowered below its use: the bound keeps what was used
    expect(await row({ amount: -5, limit: 2, bound: 5 })).toBe('stored');
    expect(await row({ amount: 0, limit: 5, bound: 4 })).toBe('balances_held_check');
    expect(await row({ amount: 0, limit: -1, bound: 0 })).toBe('balances_credit_limit_check');
  });
});
