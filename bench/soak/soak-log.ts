import type { ActionStatus } from '@engram/domain';

export type MessageAnswer = Readonly<{ messageId: string; traceId: string; position: number }>;
export type ProposalAnswer = Readonly<{
  actionId: string;
  traceId: string;
  status: ActionStatus;
  expiresAt?: string;
  position: number;
}>;

export type AcknowledgedMessage = Readonly<{ userId: string; body: object; answer: MessageAnswer }>;

/** An action as its virtual client knows it: the last status the API told it. */
export type TrackedAction = {
  readonly userId: string;
  readonly body: object;
  readonly answer: ProposalAnswer;
  told: ActionStatus;
  /** A transition was acknowledged since the proposal (a retried proposal then answers the new state). */
  transitioned: boolean;
};

type OperationStats = { statuses: Map<number, number>; latencies: number[] };

export type OperationRow = Readonly<{
  operation: string;
  count: number;
  statuses: ReadonlyMap<number, number>;
  latencies: readonly number[];
}>;

/** Everything the traffic saw: per-operation statuses and latencies, and what was acknowledged. */
export class SoakLog {
  private readonly operations = new Map<string, OperationStats>();
  /** 5xx answers and calls that got no answer at all (status 0). */
  readonly serverErrors: string[] = [];
  badRequests = 0;
  /** Deliberately bad requests that were not answered with a 4xx. */
  readonly badRequestsNot4xx: string[] = [];
  readonly messages = new Map<string, AcknowledgedMessage>();
  readonly actions = new Map<string, TrackedAction>();
  /** Transitions the action's status allowed that were refused all the same. */
  readonly refusedTransitions: string[] = [];
  retries = 0;
  readonly retryMismatches: string[] = [];

  record(operation: string, status: number, ms: number, body: string): void {
    let stats = this.operations.get(operation);
    if (!stats) {
      stats = { statuses: new Map(), latencies: [] };
      this.operations.set(operation, stats);
    }
    stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
    stats.latencies.push(ms);
    if (status >= 500 || status === 0) {
      this.serverErrors.push(`${operation}: ${status || 'no answer'} ${body.slice(0, 200)}`);
    }
  }

  get requests(): number {
    return [...this.operations.values()].reduce((sum, stats) => sum + stats.latencies.length, 0);
  }

  rows(): OperationRow[] {
    return [...this.operations.entries()]
      .map(([operation, stats]) => ({
        operation,
        count: stats.latencies.length,
        statuses: stats.statuses,
        latencies: stats.latencies,
      }))
      .sort((a, b) => b.count - a.count);
  }
}
