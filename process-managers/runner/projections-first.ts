import { waitForAllCommitted, type CommittedCheckpoints } from '@engram/projections';

/**
 * How long at most a reaction lets the projections of its worker go first. The projections are what
 * an owner reads back (the visibility lag); a reaction is work the owner does not wait for (a
 * memory candidate, a summary). Run side by side on saturated cores, the reactions took CPU from the
 * projections and the owners' lag grew with them (BENCHMARKS rounds 17, 21). The bound keeps the reactions
 * going when the projections never catch up (overload, a projection retrying after an error).
 */
export const PROJECTIONS_FIRST_MS = 200;

/** Where the worker's feed has read to (`SharedEventFeed.latestRead`). */
export type ReadPosition = Readonly<{ latestRead: bigint | undefined }>;

/**
 * When the reactions of a worker start (every reactor partition it runs shares one): once every
 * projection partition of the worker has applied all the worker's feed has read, or `maxWaitMs`
 * after the reaction asked. At the head of the log the projections catch up between the store's
 * notifications, and the reactions run in those gaps instead of beside the projections' batches.
 */
export class ProjectionsFirst {
  constructor(
    private readonly committed: CommittedCheckpoints,
    private readonly feed: ReadPosition,
    private readonly maxWaitMs = PROJECTIONS_FIRST_MS,
    /** True while no owner waits for the projections (nobody else writes): no wait then. */
    private readonly nobodyWaits: () => boolean = () => false,
  ) {}

  /** Resolves when the reaction may start (at once when `signal` aborts: the worker is stopping). */
  async turn(signal?: AbortSignal): Promise<void> {
    const latest = this.feed.latestRead;
    if (latest === undefined || this.maxWaitMs <= 0 || this.nobodyWaits()) return;
    await waitForAllCommitted(this.committed, latest, this.maxWaitMs, signal);
  }
}
