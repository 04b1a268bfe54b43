import { SignJWT, exportJWK, generateKeyPair, type KeyLike } from 'jose';
import { createServer, type Server } from 'node:http';
import { mintToken } from './mint-token';
import { TokenVerifier } from './token-verifier';

const secret = 'unit-test-secret-unit-test-secret-1234';

describe('TokenVerifier', () => {
  it('verifies an HS256 token and returns the principal', async () => {
    const token = await mintToken(secret, {
      userId: 'u1',
      workspaceId: 'w1',
      roles: ['user', 'admin'],
    });
    await expect(new TokenVerifier({ secret }).verify(token)).resolves.toEqual({
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
    let builder = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h');
    if (sub) builder = builder.setSubject(sub);
    const token = await builder.sign(new TextEncoder().encode(secret));
    await expect(new TokenVerifier({ secret }).verify(token)).rejects.toThrow(message);
  });

  it('checks issuer and audience when configured', async () => {
    const token = await new SignJWT({ ws: 'w1', roles: ['user'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('someone-else')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    await expect(new TokenVerifier({ secret, issuer: 'engram-idp' }).verify(token)).rejects.toThrow(
      /iss/,
    );
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
        .setExpirationTime('5m')
        .sign(privateKey);
      await expect(new TokenVerifier({ jwksUrl: url }).verify(token)).resolves.toMatchObject({
        userId: 'telegram-bot',
        roles: ['agent'],
      });
    });
  });
});
