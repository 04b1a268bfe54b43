import { loadConfig } from './config';

describe('loadConfig', () => {
  it('needs no environment at all: the embedded default on port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      eventStoreUrl: undefined,
      runWorker: true,
      devTokens: true,
    });
    expect(config.dataDir).toMatch(/\.data$/);
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
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be an integer'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL is not a valid URL'],
    [{ DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL must start with postgres: or postgresql:'],
    [{ EVENTSTORE_URL: 'http://es:2113' }, 'EVENTSTORE_URL must start with esdb:'],
    [{ ENGRAM_JWT_SECRET: 'short' }, 'ENGRAM_JWT_SECRET must be at least 32 bytes'],
    [{ ENGRAM_RUN_WORKER: 'maybe' }, 'ENGRAM_RUN_WORKER must be true or false'],
    [{ DATABASE_URL: '' }, 'DATABASE_URL is set but empty'],
  ])('fails at start on %j, naming the variable and the rule', (env, message) => {
    expect(() => loadConfig(env)).toThrow(`Invalid configuration: ${message}`);
  });
});
