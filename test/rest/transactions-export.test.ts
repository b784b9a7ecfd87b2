import { startTestApp, type TestApp } from '../support/test-app.js';
import { fundedProject, type FundedProject } from '../support/fixtures.js';

/** GET /transactions/export (CONTRACT §21): formats, one snapshot, streamed, released when the client leaves. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function posted(e: FundedProject, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.request('POST', path, { key: e.key, body: { projectId: e.projectId, ...body } });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.transaction;
}
const exportUrl = (e: FundedProject, query = '') => `${t.baseUrl}/transactions/export?projectId=${e.projectId}${query}`;

/** RFC 4180 records (quoted fields with "" escapes, CRLF between records). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') record.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), i++;
    else field += c;
  }
  if (field !== '' || record.length) throw new Error('last record without CRLF');
  return records;
}

/** `n` seeds into the system wallet, written straight in SQL (a large history, quickly). */
async function bulkSeeds(e: FundedProject, n: number): Promise<void> {
  await t.db.query(
    `INSERT INTO transactions (project_id, asset_id, kind, to_wallet_id, amount, to_balance, to_count, metadata)
     SELECT p.id, p.asset_id, 'seed', $2, 1, 1000 + g, 1 + g, json_build_object('n', g) FROM projects p, generate_series(1, $3::int) g WHERE p.id = $1`,
    [e.projectId, e.system.id, n],
  );
}

describe('GET /transactions/export', () => {
  it('ndjson (default): every transaction, oldest first, each line the transaction as POST /transactions answered it', async () => {
    const e = await fundedProject(t, { owner: 'export-ndjson' }, { customers: 2, systemBalance: 0 });
    const [a, b] = e.customers;
    const seed = (await posted(e, '/transactions/seed', { amount: 100, currency: e.symbol, to: e.system.id }))[0];
    const t1 = await posted(e, '/transactions', { amount: 10, currency: e.symbol, from: e.system.id, to: a.id, reference: 'r-1', metadata: { k: 'v' } });
    const t2 = await posted(e, '/transactions', { amount: 2.5, currency: e.symbol, from: a.id, to: b.id });
    const res = await fetch(exportUrl(e), { headers: { api_key: e.key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual([seed, t1, t2]);
    // the range: since ≤ date < until, until may lie in the future
    const ranged = await fetch(exportUrl(e, `&since=${encodeURIComponent(t1.date)}&until=2999-01-01T00:00:00Z`), { headers: { api_key: e.key } });
    expect((await ranged.text()).trimEnd().split('\n').map((line) => JSON.parse(line).id)).toEqual(
      [seed, t1, t2].filter((x) => x.date >= t1.date).map((x) => x.id),
    );
  });

  it('csv: RFC 4180 with the header, CRLF records, empty nulls, metadata as JSON text; parses back', async () => {
    const e = await fundedProject(t, { owner: 'export-csv' }, { customers: 1, systemBalance: 100 });
    const metadata = { note: 'a "quoted", comma\nand a new line', emoji: 'é ✓ 😀' };
    const tx = await posted(e, '/transactions', { amount: 1.25, currency: e.symbol, from: e.system.id, to: e.customers[0].id, reference: 'ref:#1/x', metadata });
    const res = await fetch(exportUrl(e, '&format=csv'), { headers: { api_key: e.key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const records = parseCsv(await res.text());
    expect(records[0]).toEqual(['id', 'date', 'from', 'to', 'amount', 'currency', 'balance', 'reference', 'reverses', 'metadata']);
    expect(records).toHaveLength(3);
    expect(records[1]).toEqual([expect.any(String), expect.any(String), '@mint', e.system.address, '100', 'PTS', '100', '', '', '{}']);
    expect(records[2]).toEqual([tx.id, tx.date, tx.from, tx.to, '1.25', 'PTS', String(tx.balance), 'ref:#1/x', '', JSON.stringify(metadata)]);
    expect(JSON.parse(records[2][9])).toEqual(metadata);
  });

  it('reads one snapshot taken when it starts: postings made while it streams are not in it', async () => {
    const e = await fundedProject(t, { owner: 'export-snapshot' }, { customers: 1, systemBalance: 100 });
    await bulkSeeds(e, 20_000);
    const res = await fetch(exportUrl(e), { headers: { api_key: e.key } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // the stream is under way (headers and a first chunk): post now
    const during = await posted(e, '/transactions', { amount: 1, currency: e.symbol, from: e.system.id, to: e.customers[0].id });
    let text = new TextDecoder().decode(first.value, { stream: true });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value, { stream: true });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(20_001);
    expect(text).not.toContain(during.id);
  });

  it('releases its connection when the client goes away mid-stream: the backend ends its query', async () => {
    const e = await fundedProject(t, { owner: 'export-abort' }, { customers: 1, systemBalance: 100 });
    await bulkSeeds(e, 50_000);
    const abort = new AbortController();
    const res = await fetch(exportUrl(e), { headers: { api_key: e.key }, signal: abort.signal });
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    abort.abort();
    // the export's slot is given back with its connection (src/domain/search/export-rows.ts)
    await t.app.services.longReads.whenIdle();
    expect(t.db.pool.idleCount).toBe(t.db.pool.totalCount);
    const running = await t.db.query(`SELECT pid FROM pg_stat_activity WHERE query LIKE '%export_rows%' AND pid <> pg_backend_pid() AND state <> 'idle'`);
    expect(running).toEqual([]);
  });

  it.each([
    ['an unknown parameter', '&colour=red', 400],
    ['an unknown format', '&format=xml', 400],
    ['a since without offset', '&since=2026-01-01T00:00:00', 400],
  ])('%s: 400 with the error body', async (_name, query, status) => {
    const e = await fundedProject(t, { owner: `export-bad-${status}-${query.length}` }, { customers: 0, systemBalance: 0 });
    const res = await t.request('GET', `/transactions/export?projectId=${e.projectId}${query}`, { key: e.key });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe('validation_error');
  });

  it('another owner\'s project: 404 not_found, before any byte of export', async () => {
    const e = await fundedProject(t, { owner: 'export-tenant' }, { customers: 0, systemBalance: 0 });
    const intruder = await t.issueKey('export-intruder', 'pro');
    const res = await t.request('GET', `/transactions/export?projectId=${e.projectId}`, { key: intruder });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});
