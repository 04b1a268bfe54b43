import { SignJWT, exportJWK, generateKeyPair, type KeyLike } from 'jose';
import { createServer, type Server } from 'node:http';
import type { LruCache } from '@engram/crypto';
import { mintToken } from './mint-token';
import {
  TokenVerifier,
  VERIFIED_TOKEN_CACHE_SIZE,
  type TokenVerifierOptions,
} from './token-verifier';

const secret = 'unit-test-secret-unit-test-secret-1234';
const key = new TextEncoder().encode(secret);
const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const verifier = (options: Partial<TokenVerifierOptions> = {}) =>
  new TokenVerifier({ secret, maxAgeSeconds: DAY, ...options });

/** An HS256 token of user u1 with exactly the given times (undefined: the claim is left out). */
function timed(times: Readonly<{ iat?: number; exp?: number }>): Promise<string> {
  let builder = new SignJWT({ ws: 'w1', roles: ['user'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('u1');
  if (times.iat !== undefined) builder = builder.setIssuedAt(times.iat);
  if (times.exp !== undefined) builder = builder.setExpirationTime(times.exp);
  return builder.sign(key);
}

describe('TokenVerifier', () => {
  it('verifies an HS256 token and returns the principal', async () => {
    const token = await mintToken(secret, {
      userId: 'u1',
      workspaceId: 'w1',
      roles: ['user', 'admin'],
    });
    await expect(verifier().verify(token)).resolves.toEqual({
      userId: 'u1',
      workspaceId: 'w1',
      roles: ['user', 'admin'],
    });
  });

  it.each([
    [{ ws: 'w1', roles: ['user'] }, undefined, 'claim "sub" must be an identifier'],
    [{ ws: 'w 1', roles: ['user'] }, 'u1', 'claim "ws" must be an identifier'],
    [{ ws: 'w1', roles: [] }, 'u1', 'claim "roles" must be a non-empty list'],
    [{ ws: 'w1', roles: ['user', 'god'] }, 'u1', 'claim "roles" holds unknown roles: god'],
  ])('refuses claims %j (sub %s): %s', async (claims, sub, message) => {
    let builder = new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h');
    if (sub) builder = builder.setSubject(sub);
    const token = await builder.sign(new TextEncoder().encode(secret));
    await expect(verifier().verify(token)).rejects.toThrow(message);
  });

  describe('lifetime', () => {
    it('accepts a token living exactly the cap, and what mintToken gives', async () => {
      const t = now();
      await expect(verifier().verify(await timed({ iat: t, exp: t + DAY }))).resolves.toBeTruthy();
      const minted = await mintToken(secret, { userId: 'u1', workspaceId: 'w1', roles: ['user'] });
      await expect(verifier({ maxAgeSeconds: 12 * 3600 }).verify(minted)).resolves.toBeTruthy();
    });

    it.each([
      ['without exp', () => timed({ iat: now() }), 'missing required "exp" claim'],
      ['without iat', () => timed({ exp: now() + 60 }), 'missing required "iat" claim'],
      [
        'minted to live longer than the cap',
        () => timed({ iat: now(), exp: now() + DAY + 1 }),
        `lifetime (exp - iat) is ${DAY + 1} s, more than the ${DAY} s allowed`,
      ],
      [
        'issued longer ago than the cap (even if exp says it is valid)',
        () => timed({ iat: now() - DAY - 120, exp: now() + 60 }),
        '"iat" claim timestamp check failed (too far in the past)',
      ],
      [
        'issued in the future',
        () => timed({ iat: now() + 3600, exp: now() + 7200 }),
        '"iat" claim timestamp check failed (it should be in the past)',
      ],
    ])('refuses a token %s', async (_, token, message) => {
      await expect(verifier().verify(await token())).rejects.toThrow(message);
    });

    it('refuses a minted token whose lifetime is above a shorter cap', async () => {
      const minted = await mintToken(secret, { userId: 'u1', workspaceId: 'w1', roles: ['user'] });
      await expect(verifier({ maxAgeSeconds: 3600 }).verify(minted)).rejects.toThrow(
        'more than the 3600 s allowed',
      );
    });
  });

  it("says a token signed with another secret does not match this server's, and nothing more", async () => {
    const token = await mintToken('another-secret-another-secret-12345', {
      userId: 'u1',
      workspaceId: 'w1',
      roles: ['user'],
    });
    const refusal = await verifier()
      .verify(token)
      .catch((error: Error) => error.message);
    expect(refusal).toBe(
      "its signature does not match this server's secret (npm run token signs with it)",
    );
  });

  it('checks issuer and audience when configured', async () => {
    const token = await new SignJWT({ ws: 'w1', roles: ['user'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('someone-else')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    await expect(verifier({ issuer: 'engram-idp' }).verify(token)).rejects.toThrow(/iss/);
  });

  describe('with a JWKS (RS256)', () => {
    let server: Server;
    let url: string;
    let privateKey: KeyLike;

    beforeAll(async () => {
      const pair = await generateKeyPair('RS256');
      privateKey = pair.privateKey;
      const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
      server = createServer((_, response) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ keys: [jwk] }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address() as { port: number };
      url = `http://127.0.0.1:${address.port}/.well-known/jwks.json`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('verifies RS256 tokens signed by a key of the set', async () => {
      const token = await new SignJWT({ ws: 'w1', roles: ['agent'] })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setSubject('telegram-bot')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      await expect(
        verifier({ secret: undefined, jwksUrl: url }).verify(token),
      ).resolves.toMatchObject({
        userId: 'telegram-bot',
        roles: ['agent'],
      });
    });

    it("says a token signed by a key outside the set does not match the provider's keys", async () => {
      const stranger = await generateKeyPair('RS256');
      const token = await new SignJWT({ ws: 'w1', roles: ['agent'] })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setSubject('telegram-bot')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(stranger.privateKey);
      await expect(verifier({ secret: undefined, jwksUrl: url }).verify(token)).rejects.toThrow(
        "its signature does not match the identity provider's keys (ENGRAM_JWKS_URL)",
      );
    });

    it('refuses an identity provider’s token without exp, or living longer than the cap', async () => {
      const signed = (lifetime: number | undefined) => {
        const builder = new SignJWT({ ws: 'w1', roles: ['agent'] })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setSubject('telegram-bot')
          .setIssuedAt(now());
        return (
          lifetime === undefined ? builder : builder.setExpirationTime(now() + lifetime)
        ).sign(privateKey);
      };
      const jwks = verifier({ secret: undefined, jwksUrl: url });
      await expect(jwks.verify(await signed(undefined))).rejects.toThrow('"exp"');
      await expect(jwks.verify(await signed(2 * DAY))).rejects.toThrow('more than the');
    });
  });
});

describe('TokenVerifier, verified tokens remembered', () => {
  afterEach(() => jest.useRealTimers());

  /** The clock (Date, for jose and the verifier alike) `seconds` from now; timers left real. */
  const at = (seconds: number) => {
    const real = Date.now();
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        'queueMicrotask',
        'hrtime',
        'performance',
      ],
    });
    jest.setSystemTime(real + seconds * 1000);
  };

  it('answers the same principal for the same token, and refuses it once it expires', async () => {
    const t = now();
    const token = await timed({ iat: t, exp: t + 60 });
    const tokens = verifier();
    const first = await tokens.verify(token);
    expect(await tokens.verify(token)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    at(61);
    await expect(tokens.verify(token)).rejects.toThrow('"exp" claim timestamp check failed');
  });

  it('refuses a remembered token once older than the age cap, whatever its exp', async () => {
    const t = now();
    // Minted under a longer cap: exp is past this verifier's cap from iat.
    const token = await timed({ iat: t, exp: t + 3_600 });
    const tokens = verifier({ maxAgeSeconds: 3_600 });
    await tokens.verify(token);
    at(3_601);
    await expect(tokens.verify(token)).rejects.toThrow();
  });

  it('never answers for another text: a token with its signature changed is refused', async () => {
    const t = now();
    const token = await timed({ iat: t, exp: t + 60 });
    const tokens = verifier();
    await tokens.verify(token);
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(tokens.verify(forged)).rejects.toThrow('signature');
  });

  it('remembers a bounded number of tokens, the least recently used out first', async () => {
    const tokens = verifier();
    const remembered = (tokens as unknown as { verified: LruCache<string, unknown> }).verified;
    const t = now();
    const first = await timed({ iat: t, exp: t + 60 });
    await tokens.verify(first);
    for (let i = 1; i < VERIFIED_TOKEN_CACHE_SIZE; i += 1) {
      remembered.set(`filler-${i}`, { principal: {}, validUntilMs: Infinity });
    }
    await tokens.verify(await timed({ iat: t, exp: t + 61 }));
    expect(remembered.size).toBe(VERIFIED_TOKEN_CACHE_SIZE);
    expect(remembered.peek(first)).toBeUndefined();
  });
});
