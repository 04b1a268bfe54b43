import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { EngramMetrics, startMetricsServer, type MetricsServer } from '@engram/observability';
import { RUNTIME, type Runtime } from '@engram/platform';

/** The worker has no HTTP API: its metrics are served on ENGRAM_METRICS_PORT, at /metrics only. */
@Injectable()
export class MetricsEndpoint implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: MetricsServer | undefined;

  constructor(
    private readonly metrics: EngramMetrics,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.runtime.config.metricsPort;
    try {
      this.server = await startMetricsServer(this.metrics, port);
      this.logger.log(`Metrics at http://localhost:${this.server.port}/metrics`);
    } catch (error) {
      // A second worker on the same host and port still works; it only goes unscraped.
      this.logger.warn(
        `Metrics not served on port ${port}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
  }
}
