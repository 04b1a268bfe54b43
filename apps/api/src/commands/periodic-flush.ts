import type { BeforeApplicationShutdown } from '@nestjs/common';

/**
 * What the API records of reads in batches rather than per request (memories put in contexts, the
 * last use of service keys): `flush` runs every `everyMs` and once more at shutdown, before the pools
 * close (they close in onApplicationShutdown), so that the last batch is written too. A crash loses
 * at most one interval's batch.
 */
export abstract class PeriodicFlush implements BeforeApplicationShutdown {
  private readonly timer: NodeJS.Timeout;

  protected constructor(everyMs: number) {
    this.timer = setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  /** Writes what was gathered; must not throw (a failed batch is logged, the next one goes on). */
  abstract flush(): Promise<void>;

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
