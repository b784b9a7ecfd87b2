import type { Principal } from '../../../src/domain/auth/api-key.service.js';
import { LedgerError } from '../../../src/domain/errors.js';
import { OwnershipRepository } from '../../../src/domain/ownership/ownership.repository.js';
import { OwnershipService } from '../../../src/domain/ownership/ownership.service.js';
import { ownedBy } from '../../../src/domain/ownership/ownership.sql.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Tenancy look-ups (CONTRACT §18) on the real database: what belongs to another owner is
 * answered exactly as what does not exist, and an address is only ever looked up inside the
 * caller's project.
 */
let t: TestApp;
let ownership: OwnershipService;
let alice: Principal;
let bob: Principal;
let a: FundedProject;
let b: FundedProject;
beforeAll(async () => {
  t = await startTestApp();
  ownership = new OwnershipService(new OwnershipRepository(t.db));
  const aliceKey = await t.issueKey('ownership-alice', 'enterprise');
  const bobKey = await t.issueKey('ownership-bob', 'enterprise');
  a = await fundedProject(t, aliceKey, { customers: 1, systemAddress: 'treasury' });
  b = await fundedProject(t, bobKey, { customers: 1, systemAddress: 'treasury' });
  alice = await t.app.services.apiKeys.authenticate(aliceKey);
  bob = await t.app.services.apiKeys.authenticate(bobKey);
});
afterAll(() => t.close());

/** The refusal `fn` throws, as its public body. */
async function refusal(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof LedgerError) return error.toBody();
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('ownedBy', () => {
  it('states tenancy as one comparison on the row alias', () => {
    expect(ownedBy('w', '$1')).toBe('w.owner_id = $1');
  });
});

describe('OwnershipService.requireProject', () => {
  it("accepts the caller's project", async () => {
    await expect(ownership.requireProject(alice, a.projectId)).resolves.toBeUndefined();
  });

  it("answers another owner's project exactly as a missing one", async () => {
    const foreign = await refusal(() => ownership.requireProject(alice, b.projectId));
    const missing = await refusal(() => ownership.requireProject(alice, 2_000_000_000));
    expect(foreign).toMatchObject({ code: 'not_found' });
    expect(missing).toMatchObject({ code: 'not_found' });
    expect(Object.keys(foreign as object)).toEqual(Object.keys(missing as object));
  });
});

describe('OwnershipService.wallet', () => {
  it('finds the caller’s wallet by id, with or without its project, and by address within its project', async () => {
    expect(await ownership.wallet(alice, a.system.id)).toMatchObject({ id: a.system.id, projectId: a.projectId });
    expect(await ownership.wallet(alice, a.system.id, a.projectId)).toMatchObject({ id: a.system.id });
    expect(await ownership.wallet(alice, 'treasury', a.projectId)).toMatchObject({ id: a.system.id });
  });

  it("never finds another owner's wallet, by id or by an address both owners use", async () => {
    expect(await refusal(() => ownership.wallet(alice, b.system.id))).toMatchObject({ code: 'not_found' });
    expect(await refusal(() => ownership.wallet(alice, 'treasury', b.projectId))).toMatchObject({ code: 'not_found' });
    expect(await ownership.wallet(bob, 'treasury', b.projectId)).toMatchObject({ id: b.system.id });
  });

  it('asks for the project when the reference is an address', async () => {
    expect(await refusal(() => ownership.wallet(alice, 'treasury'))).toMatchObject({ code: 'validation_error' });
  });
});

describe('OwnershipService.walletOf', () => {
  it("refuses the caller's own wallet named under another of the caller's projects", async () => {
    const aliceKey = await t.issueKey('ownership-alice', 'enterprise');
    const second = await fundedProject(t, aliceKey, { customers: 0, systemBalance: 0 });
    expect(await ownership.walletOf(alice, a.customers[0].id, a.projectId)).toMatchObject({ id: a.customers[0].id });
    expect(await refusal(() => ownership.walletOf(alice, a.customers[0].id, second.projectId))).toMatchObject({ code: 'not_found' });
  });
});
