import { randomBytes } from 'node:crypto';
import { decrypt, encrypt, masterKeyVersion, unwrapKey, wrapKey } from './aes-gcm';
import { LruCache } from './lru';

describe('AES-256-GCM helpers', () => {
  const key = randomBytes(32);
  const aad = Buffer.from('event-1');

  it('round-trips, with a fresh IV each time', () => {
    const a = encrypt(key, Buffer.from('secret'), aad);
    const b = encrypt(key, Buffer.from('secret'), aad);
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(decrypt(key, a, aad).toString()).toBe('secret');
  });

  it('refuses another AAD, another key, an altered ciphertext and a truncated tag', () => {
    const sealed = encrypt(key, Buffer.from('secret'), aad);
    expect(() => decrypt(key, sealed, Buffer.from('event-2'))).toThrow();
    expect(() => decrypt(randomBytes(32), sealed, aad)).toThrow();
    const altered = Buffer.from(sealed.ct);
    altered[0] = altered[0]! ^ 1;
    expect(() => decrypt(key, { ...sealed, ct: altered }, aad)).toThrow();
    expect(() => decrypt(key, { ...sealed, tag: sealed.tag.subarray(0, 4) }, aad)).toThrow(
      'malformed iv or tag',
    );
  });

  it('binds a wrapped data key to its owner', () => {
    const master = randomBytes(32);
    const dataKey = randomBytes(32);
    const wrapped = wrapKey(master, dataKey, 'w1', 'alice');
    expect(wrapped).toHaveLength(12 + 16 + 32);
    expect(unwrapKey(master, wrapped, 'w1', 'alice').equals(dataKey)).toBe(true);
    expect(() => unwrapKey(master, wrapped, 'w1', 'bob')).toThrow();
    expect(() => unwrapKey(randomBytes(32), wrapped, 'w1', 'alice')).toThrow();
  });

  it('names a master key by a stable positive 31-bit number', () => {
    const master = randomBytes(32);
    expect(masterKeyVersion(master)).toBe(masterKeyVersion(Buffer.from(master)));
    expect(masterKeyVersion(master)).toBeGreaterThanOrEqual(0);
    expect(masterKeyVersion(master)).toBeLessThan(2 ** 31);
    expect(masterKeyVersion(master)).not.toBe(masterKeyVersion(randomBytes(32)));
  });
});

describe('LruCache', () => {
  it('forgets the least recently used entry beyond its capacity', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('a')).toBe(1);
    expect(cache.peek('c')).toBe(3);
    expect(cache.size).toBe(2);
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
