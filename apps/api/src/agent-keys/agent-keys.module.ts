import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { ServiceKeyVerifier } from '@engram/auth';
import { RUNTIME, type Runtime } from '@engram/platform';
import { AgentKeyUsageRecorder } from './agent-key-usage.recorder';
import { AgentKeyVerifier } from './agent-key.verifier';
import { keyRateLimitOptions } from './agent-key-rate-limit.guard';
import { AgentKeysController } from './agent-keys.controller';

/**
 * Service keys of agents: the admins' routes, the verifier AuthGuard uses through its
 * `ServiceKeyVerifier` port, the batched record of their last use, and the options of the per-key
 * rate limit (its guard is registered after AuthGuard in AppModule).
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [RUNTIME],
      useFactory: (runtime: Runtime) => keyRateLimitOptions(runtime.config.keyRateLimitPerMinute),
    }),
  ],
  controllers: [AgentKeysController],
  providers: [
    AgentKeyUsageRecorder,
    AgentKeyVerifier,
    { provide: ServiceKeyVerifier, useExisting: AgentKeyVerifier },
  ],
  exports: [ServiceKeyVerifier],
})
export class AgentKeysModule {}
