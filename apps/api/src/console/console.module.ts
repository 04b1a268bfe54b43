import { Module, type DynamicModule } from '@nestjs/common';
import type { Runtime } from '@engram/platform';
import { DevTokensController } from './dev-tokens.controller';

/** The console's one server-side piece: the development token shortcut, when dev tokens are on. */
@Module({})
export class ConsoleModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    const devTokens = runtime.config.devTokens && runtime.jwtSecret !== undefined;
    return { module: ConsoleModule, controllers: devTokens ? [DevTokensController] : [] };
  }
}
