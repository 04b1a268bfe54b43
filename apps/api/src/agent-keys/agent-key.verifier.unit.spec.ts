import { InvalidTokenError } from '@engram/auth';
import type { PresentedAgentKey } from '@engram/projections';
import { digestOf, mintAgentKey, parseAgentKey } from './agent-key-secret';
import { CachedAgentKeyVerifier, KEY_CACHE_TTL_MS } from './agent-key.verifier';

/** A read model of one key, and a clock the test moves. */
function setup() {
  const { keyId, key, digest } = mintAgentKey();
  const row: { current: PresentedAgentKey } = {
    current: { workspaceId: 'w1', keyId, agentId: 'chat-web', digest, revokedAt: null },
  };
  let now = 0;
  const reads: string[] = [];
  const uses: string[] = [];
  const verifier = new CachedAgentKeyVerifier(
    (id) => {
      reads.push(id);
      return Promise.resolve(id === keyId ? [row.current] : []);
    },
    (principal) => uses.push(principal.keyId),
    KEY_CACHE_TTL_MS,
    () => now,
  );
  return { keyId, key, row, reads, uses, verifier, advance: (ms: number) => (now += ms) };
}

describe('service keys: the format', () => {
  it('mints egk_<uuid>_<43 base64url characters>, of which only the digest of the secret is kept', () => {
    const { keyId, key, digest } = mintAgentKey();
    expect(key).toMatch(/^egk_[0-9a-f-]{36}_[A-Za-z0-9_-]{43}$/);
    const parsed = parseAgentKey(key)!;
    expect(parsed.keyId).toBe(keyId);
    expect(digestOf(parsed.secret)).toBe(digest);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain(parsed.secret);
    expect(mintAgentKey().key).not.toBe(key);
  });

  it.each(['egk_', 'egk_abc_def', `egk_${'0'.repeat(36)}_${'A'.repeat(43)}`, 'eyJhbGciOi'])(
    'parses nothing else: %s',
    (value) => expect(parseAgentKey(value)).toBeUndefined(),
  );
});

describe('service keys: the cached verifier', () => {
  it("answers the key's principal: the agent, in its workspace, with the role agent, and records the use", async () => {
    const { key, keyId, verifier, uses } = setup();
    await expect(verifier.verify(key)).resolves.toEqual({
      userId: 'chat-web',
      workspaceId: 'w1',
      roles: ['agent'],
      keyId,
    });
    expect(uses).toEqual([keyId]);
  });

  it('reads a key once per TTL, concurrent requests included', async () => {
    const { key, verifier, reads, advance } = setup();
    await Promise.all([verifier.verify(key), verifier.verify(key), verifier.verify(key)]);
    advance(KEY_CACHE_TTL_MS - 1);
    await verifier.verify(key);
    expect(reads).toHaveLength(1);
    advance(1);
    await verifier.verify(key);
    expect(reads).toHaveLength(2);
  });

  it('a revocation made elsewhere takes effect within the TTL, not later', async () => {
    const { key, row, verifier, advance } = setup();
    await verifier.verify(key);
    row.current = { ...row.current, revokedAt: new Date() };
    // Still trusted from the cache until the bound...
    advance(KEY_CACHE_TTL_MS - 1);
    await expect(verifier.verify(key)).resolves.toMatchObject({ userId: 'chat-web' });
    // ...and refused from then on.
    advance(1);
    await expect(verifier.verify(key)).rejects.toThrow('this key was revoked');
  });

  it('a revocation made through this process takes effect at once', async () => {
    const { key, keyId, verifier } = setup();
    await verifier.verify(key);
    verifier.revoked(keyId);
    await expect(verifier.verify(key)).rejects.toThrow('this key was revoked');
  });

  it('says the same of an unknown id and of a wrong secret; malformed keys are named so', async () => {
    const { keyId, verifier } = setup();
    const wrongSecret = verifier.verify(`egk_${keyId}_${'A'.repeat(43)}`);
    const unknownId = verifier.verify(`egk_${crypto.randomUUID()}_${'A'.repeat(43)}`);
    await expect(wrongSecret).rejects.toThrow(InvalidTokenError);
    const [a, b] = await Promise.all([
      wrongSecret.catch((error: Error) => error.message),
      unknownId.catch((error: Error) => error.message),
    ]);
    expect(a).toBe(b);
    expect(a).toMatch(/^unknown key/);
    await expect(verifier.verify('egk_x')).rejects.toThrow(/^malformed key/);
  });

  it('does not keep a failed read: the next request reads again', async () => {
    let fail = true;
    const { keyId, key, digest } = mintAgentKey();
    const verifier = new CachedAgentKeyVerifier(
      () =>
        fail
          ? Promise.reject(new Error('connection refused'))
          : Promise.resolve([{ workspaceId: 'w1', keyId, agentId: 'a', digest, revokedAt: null }]),
      () => undefined,
    );
    await expect(verifier.verify(key)).rejects.toThrow('connection refused');
    fail = false;
    await expect(verifier.verify(key)).resolves.toMatchObject({ keyId });
  });
});
