import { Module, type DynamicModule } from '@nestjs/common';
import type { Runtime } from '@engram/platform';
import { DevTokensController } from './dev-tokens.controller';

/**
 * Dev tokens are on (loadConfig allows them only without DATABASE_URL and ENGRAM_JWT_SECRET, on a
 * loopback HOST) and the runtime really is the embedded default signing with the secret it generated.
 */
export function devTokensEnabled(runtime: Runtime): boolean {
  return runtime.config.devTokens && runtime.embedded && runtime.jwtSecret !== undefined;
}

/** The console's one server-side piece: the development token shortcut, when dev tokens are on. */
@Module({})
export class ConsoleModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return {
      module: ConsoleModule,
      controllers: devTokensEnabled(runtime) ? [DevTokensController] : [],
    };
  }
}
