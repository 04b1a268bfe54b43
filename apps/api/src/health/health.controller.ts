import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { Public } from '@engram/auth';
import type { EventStore } from '@engram/event-store';
import { APP_DATA_SOURCE, EVENT_STORE } from '@engram/platform';
import { countParked } from '@engram/projections';
import type { DataSource } from 'typeorm';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_DATA_SOURCE) private readonly dataSource: DataSource,
  ) {}

  @Get()
  @Public()
  @HealthCheck()
  check() {
    return this.health.check([
      // On EventStoreDB, ping also requires $by_category to run (per-user reads and erasure need it).
      () => this.probe('eventStore', () => this.store.ping(), this.storeDetails()),
      () => this.probe('database', async () => void (await this.dataSource.query('SELECT 1'))),
      () => this.backgroundProcessing(),
    ]);
  }

  /**
   * Parked events degrade the service without making it down: their owners wait for an operator
   * (`engram parked list|retry|skip`) while everyone else's processing goes on.
   */
  private async backgroundProcessing() {
    const session = this.indicators.check('backgroundProcessing');
    try {
      const counts = await countParked(this.dataSource);
      const parked = [...counts.values()].reduce((sum, count) => sum + count, 0);
      return session.up({
        state: parked === 0 ? 'ok' : 'degraded',
        parked,
        ...(parked === 0 ? {} : { parkedByConsumer: Object.fromEntries(counts) }),
      });
    } catch (error) {
      return session.down({ message: (error as Error).message });
    }
  }

  private storeDetails(): Record<string, unknown> {
    return this.store.kind === 'eventstoredb'
      ? { kind: this.store.kind, categoryProjection: '$by_category' }
      : { kind: this.store.kind };
  }

  private async probe(
    key: string,
    ping: () => Promise<void>,
    details: Record<string, unknown> = {},
  ) {
    const session = this.indicators.check(key);
    try {
      await ping();
      return session.up(details);
    } catch (error) {
      return session.down({ ...details, message: (error as Error).message });
    }
  }
}
