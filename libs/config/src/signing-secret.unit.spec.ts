import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config';
import { loadOrCreateLocalSecrets } from './local-secrets';
import { serverSigningSecret } from './signing-secret';

describe('the secret a server verifies tokens with, found without starting it', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'engram-signing-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it("is the embedded default's generated secret, read from the data folder", () => {
    const { secrets } = loadOrCreateLocalSecrets(dataDir);
    expect(serverSigningSecret(loadConfig({ ENGRAM_DATA_DIR: dataDir }))).toEqual({
      secret: secrets.jwtSecret,
      source: `the embedded default's secret in ${join(dataDir, 'secrets.json')}`,
    });
  });

  it('is ENGRAM_JWT_SECRET when it is set, as for the server', () => {
    loadOrCreateLocalSecrets(dataDir);
    const secret = 's'.repeat(32);
    expect(
      serverSigningSecret(loadConfig({ ENGRAM_DATA_DIR: dataDir, ENGRAM_JWT_SECRET: secret })),
    ).toEqual({ secret, source: 'ENGRAM_JWT_SECRET' });
  });

  it('is none before the first start, and says what to do without generating one', () => {
    expect(() => serverSigningSecret(loadConfig({ ENGRAM_DATA_DIR: dataDir }))).toThrow(
      `no secret to sign with: ${join(dataDir, 'secrets.json')} does not hold one yet; run npm start once`,
    );
    expect(existsSync(join(dataDir, 'secrets.json'))).toBe(false);
  });

  it("is none with DATABASE_URL or an identity provider: the server's secret is not here", () => {
    expect(() => serverSigningSecret(loadConfig({ DATABASE_URL: 'postgres://db/engram' }))).toThrow(
      'no ENGRAM_JWT_SECRET: with DATABASE_URL the server verifies tokens with it',
    );
    expect(() =>
      serverSigningSecret(loadConfig({ ENGRAM_JWKS_URL: 'https://idp.example/jwks' })),
    ).toThrow('this server takes tokens from your identity provider (ENGRAM_JWKS_URL)');
  });
});
