import { IdempotencyRepository } from '../../../src/domain/idempotency/idempotency.repository.js';
import { fingerprint, IdempotencyService } from '../../../src/domain/idempotency/idempotency.service.js';
import { nextPostingKey, noteMutation } from '../../../src/domain/idempotency/request-scope.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * What an idempotent request's scope tells the store (CONTRACT §24 clarification): a request that
 * ran dry runs and nothing else wrote nothing, its idempotency record included; any real mutation
 * beside them, or a request of no mutation at all, keeps its answer as before.
 */
let t: TestApp;
let service: IdempotencyService;
beforeAll(async () => {
  t = await startTestApp();
  service = new IdempotencyService(new IdempotencyRepository(t.db));
});
afterAll(() => t.close());

const kept = async (key: string) => (await t.db.query(`SELECT 1 FROM idempotency_keys WHERE owner_id = 'scope-owner' AND key = $1`, [key])).length;
const run = (key: string, body: () => void) =>
  service.run('scope-owner', key, fingerprint('POST', '/graphql', { key }), async () => {
    body();
    return { status: 200, body: { data: {} } };
  });

describe('an idempotent request and its dry runs', () => {
  it('keeps nothing when every mutation it ran was a dry run', async () => {
    await run('only-dry', () => {
      noteMutation({ dryRun: true });
      noteMutation({ dryRun: true });
    });
    expect(await kept('only-dry')).toBe(0);
  });

  it('keeps its answer when a real mutation ran beside the dry ones, or when it ran no mutation', async () => {
    await run('mixed', () => {
      noteMutation({ dryRun: true });
      noteMutation({ dryRun: false });
    });
    await run('no-mutation', () => undefined);
    expect([await kept('mixed'), await kept('no-mutation')]).toEqual([1, 1]);
  });

  it('outside any idempotent request, noting a mutation is harmless and postings get no key', () => {
    expect(() => noteMutation({ dryRun: true })).not.toThrow();
    expect(nextPostingKey()).toBeNull();
  });
});
