import type { TestApp } from '../../support/test-app.js';

/** Numbers and journals everything committed on `apps` (the background runs, awaited). */
export async function journaled(...apps: TestApp[]): Promise<void> {
  for (const t of apps) await t.app.services.eventSequencer.flush();
  for (const t of apps) await t.app.services.journalWriter.flush();
}

/** Every entry of a project's journal through the REST pages (`limit` per page). */
export async function journalOf(t: TestApp, key: string, projectId: number, limit = 100): Promise<{ seq: number; transactionId: string; hash: string; prevHash: string }[]> {
  const entries = [];
  let after = 0;
  for (;;) {
    const res = await t.request('GET', `/projects/${projectId}/journal?after=${after}&limit=${limit}`, { key });
    if (res.status !== 200) throw new Error(`journal page: ${res.status} ${res.text}`);
    entries.push(...res.body.entries);
    if (!res.body.pagination.hasMore) return entries;
    after = res.body.pagination.nextAfter;
  }
}

export async function verifyOf(t: TestApp, key: string, projectId: number): Promise<any> {
  const res = await t.request('GET', `/projects/${projectId}/journal/verify`, { key });
  if (res.status !== 200) throw new Error(`verify: ${res.status} ${res.text}`);
  return res.body;
}
