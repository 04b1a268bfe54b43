import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, parseMasterKey } from './config';
import { loadOrCreateLocalSecrets, saveLocalMasterKey } from './local-secrets';

describe('loadConfig', () => {
  it('needs no environment at all: the embedded default on port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      jwt: { maxAgeSeconds: 86_400 },
      databaseUrl: undefined,
      eventStoreUrl: undefined,
      runWorker: true,
      devTokens: true,
    });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('logs at info and serves the worker metrics on 9464 unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ logLevel: 'info', metricsPort: 9464 });
    expect(loadConfig({ LOG_LEVEL: 'DEBUG', ENGRAM_METRICS_PORT: '9100' })).toMatchObject({
      logLevel: 'debug',
      metricsPort: 9100,
    });
  });

  it('reads the optional services and switches', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://engram@db:5432/engram',
      EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false',
      ENGRAM_JWT_SECRET: 'x'.repeat(32),
      ENGRAM_RUN_WORKER: 'false',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://engram@db:5432/engram',
      eventStoreUrl: 'esdb://eventstore:2113?tls=false',
      runWorker: false,
      devTokens: false,
    });
  });

  it.each([
    [
      'kurrentdb://admin:changeit@node1:2113?tls=false',
      'esdb://admin:changeit@node1:2113?tls=false',
    ],
    ['kurrentdb+discover://cluster.example:2113', 'esdb+discover://cluster.example:2113'],
    ['kurrent://node1:2113', 'esdb://node1:2113'],
    ['esdb+discover://cluster.example:2113', 'esdb+discover://cluster.example:2113'],
  ])('gives the EventStoreDB client %s as %s (it parses only esdb schemes)', (url, expected) => {
    expect(
      loadConfig({ EVENTSTORE_URL: url, ENGRAM_JWT_SECRET: 'x'.repeat(32) }).eventStoreUrl,
    ).toBe(expected);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be an integer'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL is not a valid URL'],
    [{ DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL must start with postgres: or postgresql:'],
    [{ EVENTSTORE_URL: 'http://es:2113' }, 'EVENTSTORE_URL must start with esdb:'],
    [{ ENGRAM_JWT_SECRET: 'short' }, 'ENGRAM_JWT_SECRET must be at least 32 bytes'],
    [{ ENGRAM_RUN_WORKER: 'maybe' }, 'ENGRAM_RUN_WORKER must be true or false'],
    [{ DATABASE_URL: '' }, 'DATABASE_URL is set but empty'],
    [
      { ENGRAM_MASTER_KEY: 'c2hvcnQ=' },
      'ENGRAM_MASTER_KEY must be the base64 encoding of exactly 32',
    ],
    [{ ENGRAM_MASTER_KEY: '%'.repeat(44) }, 'ENGRAM_MASTER_KEY must be the base64 encoding'],
    [
      { ENGRAM_MASTER_KEY: randomBytes(48).toString('base64') },
      'ENGRAM_MASTER_KEY must be the base64 encoding of exactly 32',
    ],
    [{ ENGRAM_MASTER_KEY: ' ' }, 'ENGRAM_MASTER_KEY is set but empty'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace'],
    [{ ENGRAM_METRICS_PORT: '-1' }, 'ENGRAM_METRICS_PORT must be an integer from 0 to 65535'],
    [{ ENGRAM_KEY_RATE_LIMIT: '1.5' }, 'ENGRAM_KEY_RATE_LIMIT must be an integer from 0 to'],
    [{ ENGRAM_KEY_RATE_LIMIT: '-1' }, 'ENGRAM_KEY_RATE_LIMIT must be an integer from 0 to'],
    [{ ENGRAM_REACTIONS_IN_FLIGHT: '0' }, 'ENGRAM_REACTIONS_IN_FLIGHT must be an integer from 1'],
    [{ ENGRAM_REACTIONS_IN_FLIGHT: '65' }, 'ENGRAM_REACTIONS_IN_FLIGHT must be an integer from 1'],
    [{ HOST: 'http://example.com' }, 'HOST must be an IP address or a host name'],
    [
      { ENGRAM_WORKER_ROLE: 'reactors' },
      'ENGRAM_WORKER_ROLE must be one of all, projections, process-managers, got "reactors"',
    ],
    [{ ENGRAM_JWT_MAX_AGE: '0' }, 'ENGRAM_JWT_MAX_AGE must be a duration from 1s to 365d'],
    [{ ENGRAM_JWT_MAX_AGE: '2y' }, 'ENGRAM_JWT_MAX_AGE must be a duration'],
    [{ ENGRAM_JWT_MAX_AGE: '-5' }, 'ENGRAM_JWT_MAX_AGE must be a duration'],
    [{ ENGRAM_JWT_MAX_AGE: '366d' }, 'ENGRAM_JWT_MAX_AGE must be a duration'],
    [{ ENGRAM_DEV_TOKENS: '1', HOST: '0.0.0.0' }, 'ENGRAM_DEV_TOKENS can only be on'],
    [{ ENGRAM_DEV_TOKENS: '1', ENGRAM_JWT_SECRET: 'x'.repeat(32) }, 'ENGRAM_DEV_TOKENS can only'],
    [
      { ENGRAM_DEV_TOKENS: 'true', DATABASE_URL: 'postgres://db/engram' },
      'ENGRAM_DEV_TOKENS can only be on in the embedded default',
    ],
  ])('fails at start on %j, naming the variable and the rule', (env, message) => {
    expect(() => loadConfig(env)).toThrow(`Invalid configuration: ${message}`);
  });

  it('limits each service key to 600 requests a minute unless told otherwise (0: no limit)', () => {
    expect(loadConfig({}).keyRateLimitPerMinute).toBe(600);
    expect(loadConfig({ ENGRAM_KEY_RATE_LIMIT: '30' }).keyRateLimitPerMinute).toBe(30);
    expect(loadConfig({ ENGRAM_KEY_RATE_LIMIT: '0' }).keyRateLimitPerMinute).toBe(0);
  });

  it("leaves the reactions in flight to the worker's default unless told", () => {
    expect(loadConfig({}).reactionsInFlight).toBeUndefined();
    expect(loadConfig({ ENGRAM_REACTIONS_IN_FLIGHT: '16' }).reactionsInFlight).toBe(16);
  });

  it('runs every background role unless told to run one', () => {
    expect(loadConfig({}).workerRole).toBe('all');
    expect(loadConfig({ ENGRAM_WORKER_ROLE: 'projections' }).workerRole).toBe('projections');
    expect(loadConfig({ ENGRAM_WORKER_ROLE: 'Process-Managers' }).workerRole).toBe(
      'process-managers',
    );
  });

  it('reads the token lifetime cap in seconds or as a duration', () => {
    const maxAge = (value: string) => loadConfig({ ENGRAM_JWT_MAX_AGE: value }).jwt.maxAgeSeconds;
    expect([maxAge('3600'), maxAge('30m'), maxAge('12h'), maxAge('7d'), maxAge('90s')]).toEqual([
      3600, 1800, 43_200, 604_800, 90,
    ]);
  });

  it('listens where HOST says; dev tokens only with the generated secret on a loopback address', () => {
    expect(loadConfig({ HOST: '0.0.0.0' })).toMatchObject({ host: '0.0.0.0', devTokens: false });
    expect(loadConfig({ HOST: 'localhost' })).toMatchObject({ host: 'localhost', devTokens: true });
    expect(loadConfig({ HOST: '127.0.0.2', ENGRAM_DEV_TOKENS: 'on' }).devTokens).toBe(true);
    expect(loadConfig({ ENGRAM_JWT_SECRET: 'x'.repeat(32) }).devTokens).toBe(false);
    expect(loadConfig({ ENGRAM_DEV_TOKENS: 'false' }).devTokens).toBe(false);
  });

  it('reads the master key, base64 (standard or URL-safe) of 32 bytes; none by default', () => {
    const key = randomBytes(32);
    expect(loadConfig({}).masterKey).toBeUndefined();
    expect(loadConfig({ ENGRAM_MASTER_KEY: key.toString('base64') }).masterKey).toEqual(key);
    expect(loadConfig({ ENGRAM_MASTER_KEY: key.toString('base64url') }).masterKey).toEqual(key);
    expect(() => parseMasterKey('secrets.json masterKey', 'nope')).toThrow(
      'Invalid configuration: secrets.json masterKey must be the base64 encoding',
    );
  });
});

describe('local secrets of the embedded default', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates every secret on first start, master key included, readable by the owner only', () => {
    const first = loadOrCreateLocalSecrets(dir);
    expect(first).toMatchObject({ created: true, added: [] });
    expect(parseMasterKey('masterKey', first.secrets.masterKey)).toHaveLength(32);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateLocalSecrets(dir)).toEqual({ ...first, created: false });
  });

  it('adds a master key to a secrets file written before there was one, keeping the rest', () => {
    const file = join(dir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ jwtSecret: 'j'.repeat(43), databasePassword: 'pw' }));
    const { secrets, created, added } = loadOrCreateLocalSecrets(dir);
    expect({ created, added }).toEqual({ created: false, added: ['masterKey'] });
    expect(secrets).toMatchObject({ jwtSecret: 'j'.repeat(43), databasePassword: 'pw' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(secrets);
    saveLocalMasterKey(dir, 'new-key');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ...secrets, masterKey: 'new-key' });
  });

  it('never replaces a secrets file it cannot read: it holds the master key', () => {
    writeFileSync(join(dir, 'secrets.json'), '{ not json');
    expect(() => loadOrCreateLocalSecrets(dir)).toThrow('is not a JSON object');
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toBe('{ not json');
  });
});
