import { loadConfig } from '@engram/config';
import type { Runtime } from '@engram/platform';
import { ConsoleModule } from './console.module';
import { DevTokensController } from './dev-tokens.controller';

/** What prepareRuntime gives: embedded (with its generated secret) when there is no DATABASE_URL. */
const runtime = (env: Record<string, string>) =>
  ({
    config: loadConfig(env),
    jwtSecret: env.ENGRAM_JWT_SECRET ?? 'generated'.repeat(4),
    embedded: env.DATABASE_URL === undefined,
  }) as Runtime;

const controllers = (env: Record<string, string>) =>
  ConsoleModule.forRuntime(runtime(env)).controllers;

describe('the console’s development token shortcut', () => {
  it('exists in the embedded default: generated secret, listening on 127.0.0.1', () => {
    expect(controllers({})).toEqual([DevTokensController]);
    expect(controllers({ HOST: '::1' })).toEqual([DevTokensController]);
  });

  it('does not exist with a configured secret, a database of its own, or a non-loopback HOST', () => {
    expect(controllers({ ENGRAM_JWT_SECRET: 's'.repeat(32) })).toEqual([]);
    expect(
      controllers({
        DATABASE_URL: 'postgres://localhost/engram',
        ENGRAM_JWT_SECRET: 's'.repeat(32),
      }),
    ).toEqual([]);
    expect(controllers({ HOST: '0.0.0.0' })).toEqual([]);
    expect(controllers({ ENGRAM_DEV_TOKENS: '0' })).toEqual([]);
  });

  it('does not exist when the runtime is not the embedded one, whatever the configuration says', () => {
    expect(ConsoleModule.forRuntime({ ...runtime({}), embedded: false }).controllers).toEqual([]);
    expect(ConsoleModule.forRuntime({ ...runtime({}), jwtSecret: undefined }).controllers).toEqual(
      [],
    );
  });
});
