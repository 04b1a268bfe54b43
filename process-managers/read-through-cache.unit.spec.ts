import { ReadThroughCache } from './read-through-cache';

describe('a read-through cache', () => {
  function counting() {
    let reads = 0;
    return { read: () => Promise.resolve(++reads), reads: () => reads };
  }

  it('serves the positions up to the checkpoint seen before the read, then reads again', async () => {
    const cache = new ReadThroughCache<number>(10, 60_000);
    const { read, reads } = counting();
    expect(await cache.get('k', 5n, () => 9n, read)).toBe(1);
    expect(await cache.get('k', 9n, () => 9n, read)).toBe(1);
    expect(await cache.get('k', 10n, () => 12n, read)).toBe(2);
    // A checkpoint not seen past the position waited for: read, not kept.
    expect(await cache.get('j', 4n, () => 3n, read)).toBe(3);
    expect(await cache.get('j', 4n, () => undefined, read)).toBe(4);
    expect(reads()).toBe(4);
  });

  it('keeps an entry for its age at most, and starts over past its size', async () => {
    const cache = new ReadThroughCache<number>(2, 30);
    const { read, reads } = counting();
    await cache.get('k', 1n, () => 9n, read);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await cache.get('k', 1n, () => 9n, read)).toBe(2);
    await cache.get('a', 1n, () => 9n, read);
    await cache.get('b', 1n, () => 9n, read); // the third key: the two kept before are dropped
    expect(await cache.get('k', 1n, () => 9n, read)).toBe(5);
    expect(reads()).toBe(5);
  });
});
