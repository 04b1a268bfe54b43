import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { AuthGuard } from '@engram/auth';
import { httpLoggingParams } from '@engram/observability';
import { InfrastructureModule, BackgroundWorker, type Runtime } from '@engram/platform';
import { HealthModule } from './health/health.module';
import { DeclaredQueryGuard } from './http/declared-query.guard';
import { ErrorFilter } from './http/error.filter';
import { MetricsModule } from './metrics/metrics.module';
import { MeModule } from './me/me.module';
import { MessagesModule } from './messages/messages.module';
import { CommandsModule } from './commands/commands.module';
import { ReadModelsModule } from './read-models/read-models';
import { MemoriesModule } from './memories/memories.module';
import { PolicyModule } from './policy/policy.module';
import { ActionsModule } from './actions/actions.module';
import { ContextModule } from './context/context.module';
import { ErasureModule } from './erasure/erasure.module';
import { AuditModule } from './audit/audit.module';
import { ConsoleModule } from './console/console.module';
import { LlmUsageModule } from './llm-usage/llm-usage.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { McpModule } from './mcp/mcp.module';
import { AgentToolsModule } from './agent-tools/agent-tools.module';
import { AgentKeysModule } from './agent-keys/agent-keys.module';
import { AgentKeyRateLimitGuard } from './agent-keys/agent-key-rate-limit.guard';

@Module({})
export class AppModule {
  /**
   * The HTTP API, logging JSON through `logger`; with `runWorker` the projections run in the same
   * process (the embedded default).
   */
  static forRuntime(runtime: Runtime, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot(httpLoggingParams(logger)),
        InfrastructureModule.forRoot(runtime),
        MetricsModule,
        CommandsModule,
        ReadModelsModule,
        HealthModule,
        MessagesModule,
        MeModule,
        MemoriesModule,
        PolicyModule,
        ActionsModule,
        ContextModule,
        AgentToolsModule,
        AuditModule,
        ErasureModule,
        LlmUsageModule,
        WebhooksModule,
        McpModule,
        AgentKeysModule,
        ConsoleModule.forRuntime(runtime),
      ],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        // After AuthGuard, which names the service key a request came with: limited by key.
        { provide: APP_GUARD, useClass: AgentKeyRateLimitGuard },
        // After AuthGuard: a 401 or 403 before the 400 of an undeclared query parameter.
        { provide: APP_GUARD, useClass: DeclaredQueryGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
        ...(runtime.config.runWorker ? [BackgroundWorker] : []),
      ],
    };
  }
}
