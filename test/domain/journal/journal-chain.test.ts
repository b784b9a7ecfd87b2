import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { journaled, journalOf, verifyOf } from './journal-support.js';

/**
 * CONTRACT §22, checked from outside: every hash of the journal recomputes with an implementation
 * written here — its own RFC 8785 serialisation (for the JSON the fields hold) and node:crypto's
 * SHA-256 — from the transactions as the API prints them (the NDJSON export) and the amounts'
 * minor units read from the database.
 */

/** RFC 8785 §3.2: object members sorted by their names' UTF-16 code units; numbers as ECMAScript prints them; strings as JSON.stringify escapes them. */
function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('not I-JSON');
    return Object.is(value, -0) ? '0' : String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const object = value as Record<string, unknown>;
  const names = Object.keys(object).sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = a.charCodeAt(i) - b.charCodeAt(i);
      if (d !== 0) return d;
    }
    return a.length - b.length;
  });
  return `{${names.map((name) => `${JSON.stringify(name)}:${jcs(object[name])}`).join(',')}}`;
}

/** Minor units as text with exactly `fractions` decimals, by string arithmetic. */
function fixed(minor: string, fractions: number): string {
  if (fractions === 0) return minor;
  const digits = minor.padStart(fractions + 1, '0');
  return `${digits.slice(0, -fractions)}.${digits.slice(-fractions)}`;
}

const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  key = await t.issueKey('journal-chain-owner', 'enterprise');
});
afterAll(() => t?.close());

async function recompute(f: FundedProject) {
  await journaled(t);
  const entries = await journalOf(t, key, f.projectId, 3);
  const exported = await (await fetch(`${t.baseUrl}/transactions/export?projectId=${f.projectId}`, { headers: { api_key: key } })).text();
  const printed = new Map<string, any>(exported.trim().split('\n').map((line) => JSON.parse(line)).map((tx) => [tx.id, tx]));
  const minor = new Map(
    (await t.db.query<{ id: string; amount: string; fractions: number }>(`SELECT t.id, t.amount::text AS amount, a.fractions FROM transactions t JOIN assets a ON a.id = t.asset_id WHERE t.project_id = $1`, [f.projectId])).map((r) => [r.id, r]),
  );
  let prevHash = '0'.repeat(64);
  entries.forEach((entry, i) => {
    const tx = printed.get(entry.transactionId);
    const { amount, fractions } = minor.get(entry.transactionId)!;
    const canonical = jcs({ id: tx.id, date: tx.date, from: tx.from, to: tx.to, amount: fixed(amount, fractions), currency: tx.currency, reference: tx.reference, reverses: tx.reverses, metadata: tx.metadata });
    expect({ seq: entry.seq, prevHash: entry.prevHash, hash: entry.hash }).toEqual({ seq: i + 1, prevHash, hash: sha256(`${prevHash}\n${canonical}`) });
    prevHash = entry.hash;
  });
  return { entries, printed, prevHash };
}

describe('jcs (the test’s own implementation)', () => {
  it('matches RFC 8785’s own example of ordering and numbers', () => {
    // RFC 8785 §3.2.3 sorting example and §3.2.2.3 number forms
    expect(jcs({ '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' })).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    expect(jcs([333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001, -0])).toBe('[333333333.3333333,1e+30,4.5,0.002,1e-27,0]');
  });
});

describe('docs/guides/journal-and-analytics.md: verifying a chain yourself', () => {
  it('its worked example prints the canonical text and hash computed here', () => {
    const section = readFileSync('docs/guides/journal-and-analytics.md', 'utf8').split('## Journal integrity')[1].split('\n## ')[0];
    const printed = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]);
    const canonical = jcs({ id: printed.id, date: printed.date, from: printed.from, to: printed.to, amount: '12.50', currency: printed.currency, reference: printed.reference, reverses: printed.reverses, metadata: printed.metadata });
    expect(section).toContain(`# ${canonical}\n`);
    expect(section).toContain(`# ${sha256(`${'0'.repeat(64)}\n${canonical}`)}  -\n`);
  });
});

describe('every entry’s hash recomputes from the transaction as printed', () => {
  it('seeds, transfers with references and metadata of every JSON kind, a batch and reversals, two decimals', async () => {
    const f = await fundedProject(t, key, { fractions: 2, customers: 3, systemBalance: '1000.05' });
    const [a, b, c] = f.customers;
    const metadata = { z: 1, a: { é: 'accent', e: [1, 2.5, 1e21, -0.000001, true, null, 'x"y\\z\n'] }, '\u20ac': '€', '😀': { nested: {} }, '10': 10, '1': 'one' };
    const sent = await expectStatus(t.request('POST', '/transactions', { key, body: { projectId: f.projectId, currency: f.symbol, from: f.system.id, to: a.id, amount: 12.5, reference: 'order:1/#a', metadata } }), 201);
    await expectStatus(t.request('POST', '/transactions', { key, body: { projectId: f.projectId, currency: f.symbol, from: f.system.id, to: b.address, amount: 0.01 } }), 201);
    await expectStatus(
      t.request('POST', '/transactions/batch', { key, body: { projectId: f.projectId, transfers: [{ amount: 3, currency: f.symbol, from: a.id, to: c.id }, { amount: 1.1, currency: f.symbol, from: a.id, to: b.id, metadata: { leg: 2 } }] } }),
      201,
    );
    await expectStatus(t.request('POST', `/transactions/${sent.transaction.id}/reverse`, { key, body: { projectId: f.projectId, amount: 2, reference: 'refund-1', metadata: { why: 'partial' } } }), 201);
    const seedTx = await expectStatus(t.request('POST', '/transactions/seed', { key, body: { projectId: f.projectId, currency: f.symbol, to: f.system.id, amount: 7 } }), 201);
    await expectStatus(t.request('POST', `/transactions/${seedTx.transaction[0].id}/reverse`, { key, body: { projectId: f.projectId } }), 201); // back to @mint

    const { entries, printed, prevHash } = await recompute(f);
    expect(entries).toHaveLength(8);
    expect(printed.size).toBe(8);
    expect(new Set(entries.map((e) => e.transactionId))).toEqual(new Set(printed.keys()));
    expect(await verifyOf(t, key, f.projectId)).toEqual({ ok: true, entries: 8, lastSeq: 8, lastHash: prevHash });
  });

  it('an asset without decimals: the amount has no point', async () => {
    const f = await fundedProject(t, key, { fractions: 0, customers: 1, systemBalance: '40' });
    await expectStatus(t.request('POST', '/transactions', { key, body: { projectId: f.projectId, currency: f.symbol, from: f.system.id, to: f.customers[0].id, amount: 5 } }), 201);
    const { entries } = await recompute(f);
    expect(entries).toHaveLength(2);
  });

  it('follows commit order: the journal lists a project’s transactions in its events’ order', async () => {
    const f = await fundedProject(t, key, { customers: 4, systemBalance: '100' });
    await Promise.all(f.customers.flatMap((c) => [1, 2, 3].map((n) => expectStatus(t.request('POST', '/transactions', { key, body: { projectId: f.projectId, currency: f.symbol, from: f.system.id, to: c.id, amount: n } }), 201))));
    const { entries } = await recompute(f);
    const events = await t.db.query<{ subject_id: string }>(`SELECT subject_id FROM events WHERE project_id = $1 AND type IN ('transaction.posted', 'points.expired') ORDER BY seq`, [f.projectId]);
    expect(entries.map((e) => e.transactionId)).toEqual(events.map((e) => e.subject_id));
  });
});
