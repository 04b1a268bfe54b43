import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { InfrastructureModule, BackgroundWorker, type Runtime } from '@engram/platform';
import { MetricsEndpoint } from './metrics-endpoint';

@Module({})
export class WorkerModule {
  /** The background worker, logging JSON through `logger`, its metrics on ENGRAM_METRICS_PORT. */
  static forRuntime(runtime: Runtime, logger: Logger): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        LoggerModule.forRoot({ pinoHttp: { logger } }),
        InfrastructureModule.forRoot(runtime),
      ],
      providers: [BackgroundWorker, MetricsEndpoint],
    };
  }
}
