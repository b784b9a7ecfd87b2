import fc from 'fast-check';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * A property (CONTRACT §19, with its clarification of part four: a capture is checked against the
 * debit limits whose window no longer contains its hold's creation): after any sequence of
 * transfers, holds (create, void, capture) and the passing of time (which expires holds and
 * slides the windows), a wallet's `used` and `remaining` equal a plain model's, and every
 * posting is refused exactly when the model says a limit would be passed. Time passes by moving
 * the project's history back (dates of its transactions and holds), as a clock moving forward
 * would; steps of 1,000 s keep every event far from a window's edge (windows of 3,600 and 7,200 s, hold expiries of 1,200 and 2,400 s).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DEBIT = { amount: 50, window: 3600 };
const CREDIT = { amount: 70, window: 7200 };

type Step =
  | { kind: 'transfer'; to: 'b' | 'c'; amount: number }
  | { kind: 'hold'; amount: number; expiresIn: number | null }
  | { kind: 'void'; pick: number }
  | { kind: 'capture'; pick: number; part: number }
  | { kind: 'wait'; seconds: number };

const steps = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('transfer' as const), to: fc.constantFrom('b' as const, 'c' as const), amount: fc.integer({ min: 1, max: 30 }) }),
    fc.record({ kind: fc.constant('hold' as const), amount: fc.integer({ min: 1, max: 30 }), expiresIn: fc.constantFrom(null, null, 1200, 2400) }),
    fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('capture' as const), pick: fc.nat(), part: fc.integer({ min: 1, max: 100 }) }),
    fc.record({ kind: fc.constant('wait' as const), seconds: fc.constantFrom(1000, 2000) }),
  ),
  { minLength: 5, maxLength: 25 },
);

interface ModelHold {
  id: string;
  amount: number;
  createdAt: number;
  expiresAt: number | null;
  status: 'pending' | 'done';
}

/** The model: every event with its date (ms), and the clock offset the history was moved back by. */
class Model {
  debits: { at: number; amount: number }[] = [];
  credits: { at: number; amount: number }[] = [];
  holds: ModelHold[] = [];
  shiftMs = 0;

  /** Model time: real time plus how far the history was moved back. */
  now(): number {
    return Date.now() + this.shiftMs;
  }
  pending(): ModelHold[] {
    const now = this.now();
    return this.holds.filter((h) => h.status === 'pending' && (h.expiresAt === null || h.expiresAt > now));
  }
  debitUsed(): number {
    const start = this.now() - DEBIT.window * 1000;
    const moved = this.debits.filter((d) => d.at > start).reduce((s, d) => s + d.amount, 0);
    return moved + this.pending().filter((h) => h.createdAt > start).reduce((s, h) => s + h.amount, 0);
  }
  creditUsed(): number {
    const start = this.now() - CREDIT.window * 1000;
    return this.credits.filter((c) => c.at > start).reduce((s, c) => s + c.amount, 0);
  }
}

async function run(e: FundedProject, ids: { debit: string; credit: string }, plan: Step[]): Promise<void> {
  const [a, b, c] = e.customers;
  const m = new Model();
  const at = (iso: string) => Date.parse(iso) + m.shiftMs;
  for (const step of plan) {
    if (step.kind === 'wait') {
      const p = e.projectId;
      await t.db.query(`UPDATE transactions SET created_at = created_at - make_interval(secs => $2) WHERE project_id = $1`, [p, step.seconds]);
      await t.db.query(
        `UPDATE holds SET created_at = created_at - make_interval(secs => $2), updated_at = updated_at - make_interval(secs => $2),
                          expires_at = expires_at - make_interval(secs => $2) WHERE project_id = $1`,
        [p, step.seconds],
      );
      m.shiftMs += step.seconds * 1000;
    } else if (step.kind === 'transfer') {
      const to = step.to === 'b' ? b : c;
      const debitOk = m.debitUsed() + step.amount <= DEBIT.amount;
      const creditOk = step.to === 'c' || m.creditUsed() + step.amount <= CREDIT.amount;
      const res = await t.request('POST', '/transactions', { key: e.key, body: { amount: step.amount, currency: e.symbol, from: a.id, to: to.id, projectId: e.projectId } });
      if (debitOk && creditOk) {
        expect(res.status).toBe(201);
        m.debits.push({ at: at(res.body.transaction.date), amount: step.amount });
        if (step.to === 'b') m.credits.push({ at: at(res.body.transaction.date), amount: step.amount });
      } else {
        expect(res.body).toMatchObject({ code: 'limit_exceeded', details: { limitId: debitOk ? ids.credit : ids.debit } });
      }
    } else if (step.kind === 'hold') {
      const ok = m.debitUsed() + step.amount <= DEBIT.amount;
      const body = { amount: step.amount, currency: e.symbol, from: a.id, to: b.id, projectId: e.projectId, ...(step.expiresIn && { expiresIn: step.expiresIn }) };
      const res = await t.request('POST', '/holds', { key: e.key, body });
      if (ok) {
        expect(res.status).toBe(201);
        const created = at(res.body.hold.created_at);
        m.holds.push({ id: res.body.hold.id, amount: step.amount, createdAt: created, expiresAt: step.expiresIn ? created + step.expiresIn * 1000 : null, status: 'pending' });
      } else {
        expect(res.body).toMatchObject({ code: 'limit_exceeded', details: { limitId: ids.debit } });
      }
    } else {
      const open = m.pending();
      if (open.length === 0) continue;
      const hold = open[step.pick % open.length];
      if (step.kind === 'void') {
        expect((await t.request('POST', `/holds/${hold.id}/void`, { key: e.key, body: { projectId: e.projectId } })).status).toBe(200);
        hold.status = 'done';
      } else {
        const amount = Math.max(1, Math.floor((hold.amount * step.part) / 100));
        // the sender's debit limit is checked again only once its window no longer contains the hold's creation
        const aged = hold.createdAt <= m.now() - DEBIT.window * 1000;
        const debitOk = !aged || m.debitUsed() + amount <= DEBIT.amount;
        const creditOk = m.creditUsed() + amount <= CREDIT.amount;
        const res = await t.request('POST', `/holds/${hold.id}/capture`, { key: e.key, body: { projectId: e.projectId, amount } });
        if (debitOk && creditOk) {
          expect(res.status).toBe(201);
          hold.status = 'done';
          m.debits.push({ at: at(res.body.transaction.date), amount });
          m.credits.push({ at: at(res.body.transaction.date), amount });
        } else {
          expect(res.body).toMatchObject({ code: 'limit_exceeded', details: { limitId: debitOk ? ids.credit : ids.debit } });
        }
      }
    }
    const [ofA, ofB] = await Promise.all([a, b].map((w) => t.request('GET', `/wallets/${w.id}/limits`, { key: e.key })));
    const debitUsed = m.debitUsed();
    const creditUsed = m.creditUsed();
    expect(ofA.body.limits).toMatchObject([{ id: ids.debit, used: debitUsed, remaining: Math.max(0, DEBIT.amount - debitUsed) }]);
    expect(ofB.body.limits).toMatchObject([{ id: ids.credit, used: creditUsed, remaining: Math.max(0, CREDIT.amount - creditUsed) }]);
  }
}

describe('used and remaining against a model', () => {
  let n = 0;
  it('agree after any sequence of transfers, holds, captures, voids, expiries and time passing', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        // a fresh project per sequence: a's funds (from before the limits) never run short, b starts with nothing received
        const e = await fundedProject(t, { owner: `limits-model-${n++}` }, { customers: 3, systemBalance: 100_000 });
        const fund = await t.request('POST', '/transactions', { key: e.key, body: { amount: 10_000, currency: e.symbol, from: e.system.id, to: e.customers[0].id, projectId: e.projectId } });
        expect(fund.status).toBe(201);
        const limit = async (body: Record<string, unknown>) =>
          (await t.request('POST', '/limits', { key: e.key, body: { projectId: e.projectId, currency: e.symbol, ...body } })).body.limit.id as string;
        const debit = await limit({ direction: 'debit', amount: DEBIT.amount, windowSeconds: DEBIT.window, walletId: e.customers[0].id });
        const credit = await limit({ direction: 'credit', amount: CREDIT.amount, windowSeconds: CREDIT.window, walletId: e.customers[1].id });
        await run(e, { debit, credit }, plan);
      }),
      {
        numRuns: 20,
        examples: [
          // a hold older than the window, still pending: it no longer counts; then one that expires inside it
          [[{ kind: 'hold', amount: 30, expiresIn: null }, { kind: 'wait', seconds: 2000 }, { kind: 'wait', seconds: 2000 }, { kind: 'transfer', to: 'b', amount: 30 }, { kind: 'hold', amount: 20, expiresIn: 1200 }, { kind: 'wait', seconds: 2000 }, { kind: 'transfer', to: 'c', amount: 20 }]],
          // a hold aged out of the debit window, then spending up to the limit: its capture is a new movement there, refused
          [[{ kind: 'hold', amount: 30, expiresIn: null }, { kind: 'wait', seconds: 2000 }, { kind: 'wait', seconds: 2000 }, { kind: 'transfer', to: 'c', amount: 30 }, { kind: 'capture', pick: 0, part: 100 }, { kind: 'transfer', to: 'c', amount: 20 }, { kind: 'capture', pick: 0, part: 50 }]],
        ],
      },
    );
    // 22 sequences of up to 25 requests each: about a minute alone, more on a busy machine
  }, 240_000);
});
