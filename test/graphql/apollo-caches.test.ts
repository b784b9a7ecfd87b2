import { parse } from 'graphql';
import { documentStore, persistedQueryStore } from '../../src/graphql/apollo-caches.js';

/** ≈ 60 KB kept each (the text), ≈ 1.2 MB each before it is made lean (one token a comment line). */
const padded = (i: number) => `query P${i} { plan { planCode } }\n${'#\n'.repeat(30_000)}`;

describe("Apollo's document store (CONTRACT §18: bounded by the bytes it keeps)", () => {
  it('keeps documents up to its bytes, by what they keep (not their JSON), the least recently used out first', async () => {
    const store = documentStore(300 * 1024); // room for four documents of ≈ 66 KB (60 KB of text, their tokens), not five
    for (let i = 0; i < 4; i++) await store.set(`k${i}`, parse(padded(i)));
    const keptAll = await Promise.all([0, 1, 2, 3].map((i) => store.get(`k${i}`)));
    expect(keptAll.every(Boolean)).toBe(true); // what Apollo's estimate (≈ 100 bytes each) would say too
    expect(await store.get('k0')).toBeDefined(); // k0 used last of all: k1 is the least recent
    await store.set('k4', parse(padded(4)));
    expect(await store.get('k1')).toBeUndefined();
    expect(await store.get('k0')).toBeDefined();
    for (let i = 5; i < 9; i++) await store.set(`k${i}`, parse(padded(i)));
    expect(await store.get('k0')).toBeUndefined(); // the first entry did not stay for good
  });

  it('stores documents lean: the token list no longer reaches the comments', async () => {
    const store = documentStore();
    const document = parse(padded(0));
    await store.set('k', document);
    expect((await store.get('k'))!.loc!.startToken.next).toBeNull();
  });
});

describe("Apollo's persisted query texts", () => {
  it('are bounded by their bytes, the least recently used out first, with Apollo’s TTL in seconds', async () => {
    const store = persistedQueryStore(100 * 1024);
    await store.set('a', 'x'.repeat(40_000));
    await store.set('b', 'x'.repeat(40_000));
    expect(await store.get('a')).toBeDefined();
    await store.set('c', 'x'.repeat(40_000));
    expect([await store.get('a'), await store.get('b'), await store.get('c')].map(Boolean)).toEqual([true, false, true]);
    expect(await store.delete('a')).toBe(true);
    expect(await store.get('a')).toBeUndefined();
  });
});
