import { loadConfig } from '@engram/config';
import type { Runtime } from '@engram/platform';
import { ConsoleModule } from './console.module';
import { DevTokensController } from './dev-tokens.controller';

const runtime = (env: Record<string, string>) =>
  ({ config: loadConfig(env), jwtSecret: 'x'.repeat(32) }) as Runtime;

describe('the console’s development token shortcut', () => {
  it('exists in the embedded default (no DATABASE_URL)', () => {
    expect(ConsoleModule.forRuntime(runtime({})).controllers).toEqual([DevTokensController]);
  });

  it('does not exist with DATABASE_URL unless ENGRAM_DEV_TOKENS=1, nor without an HS256 secret', () => {
    const database = { DATABASE_URL: 'postgres://localhost/engram' };
    expect(ConsoleModule.forRuntime(runtime(database)).controllers).toEqual([]);
    expect(
      ConsoleModule.forRuntime(runtime({ ...database, ENGRAM_DEV_TOKENS: '1' })).controllers,
    ).toEqual([DevTokensController]);
    expect(
      ConsoleModule.forRuntime({ ...runtime({ ENGRAM_DEV_TOKENS: '1' }), jwtSecret: undefined })
        .controllers,
    ).toEqual([]);
  });
});
