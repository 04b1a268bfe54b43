import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenVerifier } from '@engram/auth';
import { loadConfig, loadOrCreateLocalSecrets } from '@engram/config';
import { parseCliArgs } from '../args';
import { tokenCommand, tokenLifetime } from './token';

describe('npm run token', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'engram-token-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  async function token(env: Record<string, string>, ...argv: string[]) {
    const printed = { token: '', notes: [] as string[] };
    await tokenCommand(loadConfig({ ENGRAM_DATA_DIR: dataDir, ...env }), parseCliArgs(argv), {
      token: (text) => (printed.token = text),
      note: (text) => printed.notes.push(text),
    });
    return printed;
  }

  it('signs with the secret the embedded server verifies, says which, with no database', async () => {
    const { secrets } = loadOrCreateLocalSecrets(dataDir); // what the first npm start left
    const minted = await token(
      {},
      'token',
      '--ws',
      'demo',
      '--user',
      'alice',
      '--roles',
      'user,admin',
    );
    const verifier = new TokenVerifier({ secret: secrets.jwtSecret, maxAgeSeconds: 86_400 });
    await expect(verifier.verify(minted.token)).resolves.toMatchObject({
      userId: 'alice',
      workspaceId: 'demo',
      roles: ['user', 'admin'],
    });
    expect(minted.notes).toEqual([
      `Token for alice in workspace demo (user, admin), valid 12h, signed with the embedded ` +
        `default's secret in ${join(dataDir, 'secrets.json')}`,
    ]);
  });

  it('says when there is no secret yet, and what to do', async () => {
    await expect(token({}, 'token', '--ws', 'demo', '--user', 'alice')).rejects.toThrow(
      'run npm start once (it generates it there), or set ENGRAM_JWT_SECRET',
    );
  });

  it('is 12 h by default, shortened to ENGRAM_JWT_MAX_AGE when that is lower', () => {
    expect(tokenLifetime(undefined, 86_400)).toBe(12 * 3600);
    expect(tokenLifetime(undefined, 3600)).toBe(3600);
  });

  it('takes --ttl in seconds or as a duration, within the cap', () => {
    expect(tokenLifetime('90', 86_400)).toBe(90);
    expect(tokenLifetime('30m', 86_400)).toBe(1800);
    expect(tokenLifetime('24h', 86_400)).toBe(86_400);
  });

  it('refuses a --ttl the API would refuse, or that is no duration', () => {
    expect(() => tokenLifetime('2d', 86_400)).toThrow(
      '--ttl 2d is longer than ENGRAM_JWT_MAX_AGE (1d)',
    );
    expect(() => tokenLifetime('soon', 86_400)).toThrow('--ttl must be a duration');
    expect(() => tokenLifetime('0', 86_400)).toThrow('--ttl must be a duration');
  });
});
