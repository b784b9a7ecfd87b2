import type { Principal } from '../../../src/domain/auth/api-key.service.js';
import { STATUS_TRANSITIONS } from '../../../src/domain/wallets/wallet.rules.js';
import type { WalletService } from '../../../src/domain/wallets/wallet.service.js';
import type { WalletStatus } from '../../../src/domain/wallets/wallet.types.js';
import { fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Wallet status transitions (CONTRACT §3), all nine pairs, through WalletService on the real
 * database: each pair from a wallet holding funds and from an empty one.
 */
let t: TestApp;
let p: FundedProject;
let principal: Principal;
let wallets: WalletService;
beforeAll(async () => {
  t = await startTestApp();
  const key = await t.issueKey('wallet-status', 'enterprise');
  p = await fundedProject(t, key, { customers: 0, systemBalance: 1000 });
  principal = await t.app.services.apiKeys.authenticate(key);
  wallets = t.app.services.wallets;
});
afterAll(() => t.close());

const STATUSES: WalletStatus[] = ['active', 'suspended', 'closed'];
const PAIRS = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));

/** A customer wallet in status `from`, holding 1 unit or nothing (a closed wallet is always empty). */
async function walletIn(from: WalletStatus, funded: boolean): Promise<string> {
  const wallet = await wallets.create(principal, 'customer', { projectId: p.projectId });
  if (funded) await transfer(t, p, p.system.id, wallet.id, 1);
  if (from !== 'active') await wallets.setStatus(principal, wallet.id, { projectId: p.projectId, status: from });
  return wallet.id;
}

/** The outcome the contract asks for: the resulting status, or the refusal's code. */
function expected(from: WalletStatus, to: WalletStatus, funded: boolean): string {
  if (from === to) return to; // no-op, closed included
  if (from === 'closed') return 'conflict'; // closed is final
  if (to === 'closed') return funded ? 'wallet_not_empty' : 'closed';
  return to; // active ⇄ suspended
}

describe('WalletService.setStatus', () => {
  it('has a transition for each of the nine pairs', () => {
    expect(PAIRS.map(([from, to]) => [from, to, STATUS_TRANSITIONS[from][to]])).toEqual([
      ['active', 'active', 'unchanged'],
      ['active', 'suspended', 'allowed'],
      ['active', 'closed', 'when_empty'],
      ['suspended', 'active', 'allowed'],
      ['suspended', 'suspended', 'unchanged'],
      ['suspended', 'closed', 'when_empty'],
      ['closed', 'active', 'refused'],
      ['closed', 'suspended', 'refused'],
      ['closed', 'closed', 'unchanged'],
    ]);
  });

  describe.each([
    ['holding funds', true],
    ['empty', false],
  ])('a wallet %s', (_label, funded) => {
    it.each(PAIRS.filter(([from]) => !(funded && from === 'closed')))('%s → %s', async (from, to) => {
      const id = await walletIn(from, funded);
      const before = await wallets.get(principal, id);
      const outcome = await wallets.setStatus(principal, id, { projectId: p.projectId, status: to }).then(
        (view) => view.status,
        (error: { code: string }) => error.code,
      );
      expect(outcome).toBe(expected(from, to, funded));
      const after = await wallets.get(principal, id);
      expect(after.status).toBe(outcome === to ? to : from);
      if (from === to) expect(after.updatedAt).toEqual(before.updatedAt); // a no-op writes nothing
    });
  });
});
