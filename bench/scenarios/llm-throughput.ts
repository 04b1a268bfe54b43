import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import type { BenchDatabase } from '../support/bench-database';
import { lowestCheckpoint } from '../support/checkpoints';
import { startEngram } from '../support/engram-process';
import type { FakeOpenAi } from '../support/fake-openai';
import { call } from '../support/http-client';
import { benchToken } from '../support/secrets';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long the scripted model takes to answer an extraction: a real one takes 0.5 to 3 s. */
export const MODEL_LATENCY_MS = 500;

export type ExtractionThroughput = Readonly<{
  reactionsInFlight: number;
  messages: number;
  seconds: number;
  perSecond: number;
}>;

/**
 * Extractions a second when the model takes MODEL_LATENCY_MS: one message from each of `users`
 * users at once, timed from the first post until the extraction reactor's every
 * partition has passed the last message, with the worker reacting for `reactionsInFlight` owners
 * at once per partition (ENGRAM_REACTIONS_IN_FLIGHT).
 */
export async function extractionThroughput(
  database: BenchDatabase,
  pool: Pool,
  fake: FakeOpenAi,
  baseUrl: string,
  reactionsInFlight: number,
  userCount: number,
): Promise<ExtractionThroughput> {
  const api = await startEngram('api', database, {
    ENGRAM_RUN_WORKER: 'true',
    OPENAI_API_KEY: 'bench-key',
    OPENAI_BASE_URL: baseUrl,
    ENGRAM_REACTIONS_IN_FLIGHT: String(reactionsInFlight),
  });
  try {
    const workspaceId = `llm-throughput-${reactionsInFlight}`;
    const agent = await benchToken(workspaceId, 'bench-agent', ['agent']);
    fake.respond('extraction', {
      delayMs: MODEL_LATENCY_MS,
      content: JSON.stringify({ candidates: [] }),
    });
    const post = async (user: string) => {
      const answer = await call(`${api.url}/v1/workspaces/${workspaceId}/users/${user}/messages`, {
        method: 'POST',
        token: agent,
        body: { sessionId: 's1', channel: 'web', role: 'user', text: 'Je vis à Lyon.' },
      });
      return (JSON.parse(answer.body) as { position: number }).position;
    };
    const extracted = async (position: number) => {
      while ((await lowestCheckpoint(pool, ['reactor:memory_extraction'])) < position) {
        await sleep(10);
      }
    };
    // A worker just started (its leases taken, its keys read): not what is measured.
    await extracted(await post('warm-up'));
    const started = performance.now();
    const users = Array.from({ length: userCount }, (_, user) => `user-${user}`);
    const positions = await Promise.all(users.map(post));
    await extracted(Math.max(...positions));
    const seconds = (performance.now() - started) / 1000;
    return {
      reactionsInFlight,
      messages: userCount,
      seconds,
      perSecond: userCount / seconds,
    };
  } finally {
    fake.respond('extraction', () => undefined);
    await api.stop();
  }
}
