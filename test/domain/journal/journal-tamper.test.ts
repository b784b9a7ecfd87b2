import path from 'node:path';
import { fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { ROOT, spawnNode, withTimeout } from '../../system/support/process.js';
import { journaled, journalOf, verifyOf } from './journal-support.js';
import { JournalRepository } from '../../../src/domain/journal/journal.repository.js';
import { JournalVerifier } from '../../../src/domain/journal/journal-verifier.js';
import type { JournalHead } from '../../../src/domain/journal/journal.types.js';

/**
 * CONTRACT §22: a row changed behind the service's back is found by verify, which names it — over
 * REST and offline (`npm run verify`, exit 0 or 1).
 */
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  key = await t.issueKey('journal-tamper-owner', 'enterprise');
});
afterAll(() => t?.close());

/** A journaled project of five transactions; returns it with its entries. */
async function history(): Promise<{ f: FundedProject; entries: Awaited<ReturnType<typeof journalOf>> }> {
  const f = await fundedProject(t, key, { customers: 3, systemBalance: '100' });
  const [a, b, c] = f.customers;
  await transfer(t, f, f.system.id, a.id, 10);
  await transfer(t, f, a.id, b.id, 4.25);
  await transfer(t, f, b.id, c.id, 1);
  await transfer(t, f, f.system.id, c.id, 2);
  await journaled(t);
  const entries = await journalOf(t, key, f.projectId);
  expect(entries).toHaveLength(5);
  expect(await verifyOf(t, key, f.projectId)).toMatchObject({ ok: true, entries: 5, lastSeq: 5 });
  return { f, entries };
}

const VERIFY_CLI = path.join(ROOT, 'dist', 'src', 'cli', 'verify.js');

async function cli(...args: string[]): Promise<{ code: number | null; report: any; stderr: string }> {
  const run = spawnNode(VERIFY_CLI, args, { DATABASE_URL: t.databaseUrl });
  const exit = await withTimeout(run.exited, 30_000, 'verify CLI did not exit');
  return { code: exit.code, report: run.stdout() ? JSON.parse(run.stdout()) : null, stderr: run.stderr() };
}

describe('a transaction changed in the database is named by verify (hash_mismatch)', () => {
  it.each([
    ['its amount', `UPDATE transactions SET amount = amount + 1 WHERE id = $1`],
    ['a party', `UPDATE transactions t SET to_wallet_id = (SELECT id FROM wallets w WHERE w.project_id = t.project_id AND w.id NOT IN (t.from_wallet_id, t.to_wallet_id) AND w.type = 'customer' LIMIT 1) WHERE id = $1`],
    ['its date', `UPDATE transactions SET created_at = created_at - interval '1 second' WHERE id = $1`],
  ])('%s', async (_what, tamper) => {
    const { f, entries } = await history();
    const target = entries[2];
    await t.db.query(tamper, [target.transactionId]);
    const report = await verifyOf(t, key, f.projectId);
    expect(report).toEqual({ ok: false, entries: 3, reason: 'hash_mismatch', seq: 3, transactionId: target.transactionId, walletId: null });
    // offline, the same report and exit 1
    expect(await cli('--project', String(f.projectId))).toEqual({ code: 1, report, stderr: '' });
  });

  it('a transaction deleted, or an entry’s hash rewritten', async () => {
    const { f, entries } = await history();
    await t.db.query(`UPDATE journal SET hash = decode(repeat('ab', 32), 'hex') WHERE project_id = $1 AND seq = 4`, [f.projectId]);
    expect(await verifyOf(t, key, f.projectId)).toMatchObject({ ok: false, reason: 'hash_mismatch', seq: 4, transactionId: entries[3].transactionId });
    await t.db.query(`DELETE FROM transactions WHERE id = $1`, [entries[1].transactionId]);
    expect(await verifyOf(t, key, f.projectId)).toMatchObject({ ok: false, reason: 'hash_mismatch', seq: 2, transactionId: entries[1].transactionId });
  });
});

describe('a stored balance changed is named by verify (balance_mismatch)', () => {
  it('names the wallet', async () => {
    const { f } = await history();
    const wallet = f.customers[1].id;
    await t.db.query(`UPDATE balances SET amount = amount + 1 WHERE wallet_id = $1`, [wallet]);
    const report = await verifyOf(t, key, f.projectId);
    expect(report).toEqual({ ok: false, entries: 5, reason: 'balance_mismatch', seq: null, transactionId: null, walletId: wallet });
    expect(await cli('--project', String(f.projectId))).toEqual({ code: 1, report, stderr: '' });
  });

  it('a balance row removed, its journal still moving money', async () => {
    const { f } = await history();
    await t.db.query(`DELETE FROM balances WHERE wallet_id = $1`, [f.customers[2].id]);
    expect(await verifyOf(t, key, f.projectId)).toMatchObject({ ok: false, reason: 'balance_mismatch', walletId: f.customers[2].id });
  });
});

describe('postings not journaled yet are no break', () => {
  it('with the numbering and the journal stopped, verify checks the chain it has and counts the rest as after it', async () => {
    const { f, entries } = await history();
    const { eventSequencer, journalWriter } = t.app.services;
    await journalWriter.stop();
    try {
      await transfer(t, f, f.customers[0].id, f.customers[1].id, 1);
      await eventSequencer.flush(); // numbered, the writer stopped: not journaled
      await eventSequencer.stop();
      await transfer(t, f, f.customers[1].id, f.customers[2].id, 2); // not even numbered
      expect(await journalOf(t, key, f.projectId)).toEqual(entries);
      const report = await verifyOf(t, key, f.projectId);
      expect(report).toEqual({ ok: true, entries: 5, lastSeq: 5, lastHash: entries[4].hash });
      expect(await cli('--project', String(f.projectId))).toEqual({ code: 0, report, stderr: '' });
    } finally {
      journalWriter.start();
      eventSequencer.start();
      await journaled(t);
    }
    expect(await verifyOf(t, key, f.projectId)).toMatchObject({ ok: true, entries: 7, lastSeq: 7 });
  });

  it('entries written while verify runs are after the head it read at the start: the balances count them as such', async () => {
    const { f, entries } = await history();
    // verify as if it had started when the journal ended at seq 3 (entries 4 and 5 written since)
    class StartedEarlier extends JournalRepository {
      override async head(): Promise<JournalHead> {
        return { seq: 3n, hash: entries[2].hash };
      }
    }
    expect(await new JournalVerifier(new StartedEarlier(t.db)).verify(f.projectId)).toEqual({ ok: true, entries: 3, lastSeq: 3, lastHash: entries[2].hash });
  });
});

describe('a verify that finds a break', () => {
  it('returns once the chunk it read ahead is back: no statement of it outlives its long-read slot', async () => {
    const { f, entries } = await history();
    await t.db.query(`UPDATE transactions SET amount = amount + 1 WHERE id = $1`, [entries[2].transactionId]);
    // chunks of 2 entries: the break at seq 3 is found in the second chunk while the third is being read
    let reading = 0;
    class SmallChunks extends JournalRepository {
      override async entries(projectId: number, after: bigint, upTo: bigint): Promise<Awaited<ReturnType<JournalRepository['entries']>>> {
        reading += 1;
        try {
          return await super.entries(projectId, after, upTo, 2);
        } finally {
          reading -= 1;
        }
      }
    }
    const report = await new JournalVerifier(new SmallChunks(t.db)).verify(f.projectId);
    expect(report).toMatchObject({ ok: false, reason: 'hash_mismatch', seq: 3 });
    expect(reading).toBe(0);
  });
});

describe('npm run verify', () => {
  it('exit 0 and the report on stdout for a sound journal; 2 for usage or an unknown project', async () => {
    const { f, entries } = await history();
    expect(await cli('--project', String(f.projectId))).toEqual({ code: 0, report: { ok: true, entries: 5, lastSeq: 5, lastHash: entries[4].hash }, stderr: '' });
    const usage = await cli();
    expect(usage).toMatchObject({ code: 2, report: null, stderr: expect.stringMatching(/usage/) });
    const unknown = await cli('--project', '2147483000');
    expect(unknown).toMatchObject({ code: 2, report: null, stderr: expect.stringMatching(/does not exist/) });
  });
});
