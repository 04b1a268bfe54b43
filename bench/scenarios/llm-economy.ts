import { lowestCheckpoint } from '../support/checkpoints';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { countTokens, tokenizerForModel } from '@engram/prompt-blocks';
import { DEFAULT_LLM_MODEL } from '@engram/llm';
import { createBenchDatabase } from '../support/bench-database';
import { startEngram, type EngramProcess } from '../support/engram-process';
import { FakeOpenAi, type Received } from '../support/fake-openai';
import { call } from '../support/http-client';
import type { BenchOptions } from '../support/options';
import { measurement, type ScenarioResult } from '../support/result';
import { benchToken } from '../support/secrets';
import { round } from '../support/stats';
import { conversationTurn } from './llm-conversation';
import { MODEL_LATENCY_MS, extractionThroughput } from './llm-throughput';

const REACTORS = ['reactor:memory_extraction', 'reactor:rolling_summary'];
const TOKENIZER = tokenizerForModel(DEFAULT_LLM_MODEL);

type Usage = { calls: number; promptTokens: number; completionTokens: number };
type VariantRun = Readonly<{
  byPurpose: Record<string, Usage>;
  total: Usage;
  contextTokens: number;
  historyTokens: number;
}>;

/**
 * LLM economy, in counts: the same conversation (options.humanTurns turns of a user and the
 * assistant) recorded in a workspace with batched rolling summaries (the default policy) and in one
 * that summarizes every turn, against the scripted OpenAI-compatible endpoint; and the context's
 * prompt tokens against the whole conversation's.
 */
export async function llmEconomyScenario(options: BenchOptions): Promise<ScenarioResult> {
  const database = await createBenchDatabase(options.serverUrl, 'llm');
  const fake = new FakeOpenAi();
  const baseUrl = await fake.start();
  const pool = new Pool({ connectionString: database.ownerUrl, max: 2 });
  let api: EngramProcess | undefined;
  try {
    api = await startEngram('api', database, {
      ENGRAM_RUN_WORKER: 'true',
      OPENAI_API_KEY: 'bench-key',
      OPENAI_BASE_URL: baseUrl,
    });
    const batched = await runVariant(api, pool, fake, 'llm-batched', {}, options.humanTurns);
    const everyTurn = await runVariant(
      api,
      pool,
      fake,
      'llm-every-turn',
      { summaryBatch: 1 },
      options.humanTurns,
    );
    await api.stop();
    api = undefined;
    // The same run, one reaction at a time per partition (the offline default) and several.
    const users = options.smoke ? 16 : 64;
    const one = await extractionThroughput(database, pool, fake, baseUrl, 1, users);
    const several = await extractionThroughput(database, pool, fake, baseUrl, 8, users);
    const per100 = (value: number) => (value * 100) / options.humanTurns;
    const tokens = (usage: Usage) => usage.promptTokens + usage.completionTokens;
    return {
      measurements: [
        measurement({
          scenario: '6 llm',
          metric: 'LLM calls per 100 human turns (batched vs every turn)',
          unit: 'calls',
          engram: per100(batched.total.calls),
          baseline: per100(everyTurn.total.calls),
        }),
        measurement({
          scenario: '6 llm',
          metric: 'LLM tokens per 100 human turns (batched vs every turn)',
          unit: 'tokens',
          engram: per100(tokens(batched.total)),
          baseline: per100(tokens(everyTurn.total)),
        }),
        measurement({
          scenario: '6 llm',
          metric: `context prompt vs full history, after ${options.humanTurns} turns`,
          unit: 'tokens',
          engram: batched.contextTokens,
          baseline: batched.historyTokens,
        }),
        measurement({
          scenario: '6 llm',
          metric: `extractions/s, model answering in ${MODEL_LATENCY_MS} ms, ${users} users at once (8 vs 1 in flight)`,
          unit: '/s',
          engram: round(several.perSecond, 1),
          baseline: round(one.perSecond, 1),
        }),
      ],
      details: { humanTurns: options.humanTurns, batched, everyTurn, throughput: [one, several] },
    };
  } finally {
    await api?.stop();
    await fake.stop();
    await pool.end();
    await database.drop();
  }
}

async function runVariant(
  api: EngramProcess,
  pool: Pool,
  fake: FakeOpenAi,
  workspaceId: string,
  policy: Record<string, unknown>,
  turns: number,
): Promise<VariantRun> {
  const agent = await benchToken(workspaceId, 'bench-agent', ['agent']);
  const admin = await benchToken(workspaceId, 'bench-admin', ['admin']);
  const base = `${api.url}/v1/workspaces/${workspaceId}`;
  await call(`${base}/memory-policy`, { method: 'PUT', token: admin, body: policy });
  fake.answer();
  const history: string[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    let position = 0;
    for (const message of conversationTurn(turn)) {
      history.push(`${message.role}: ${message.text}`);
      const answer = await call(`${base}/users/alice/messages`, {
        method: 'POST',
        token: agent,
        body: { sessionId: 's1', channel: 'telegram', ...message },
      });
      position = (JSON.parse(answer.body) as { position: number }).position;
    }
    // A person takes seconds to answer: the background work of one turn ends before the next.
    await waitForReactors(pool, position);
  }
  const context = await call(`${base}/users/alice/context?sessionId=s1`, { token: agent });
  const { tokens } = JSON.parse(context.body) as { tokens: { used: number } };
  return {
    ...usageOf(fake.requests()),
    contextTokens: tokens.used,
    historyTokens: countTokens(history.join('\n'), TOKENIZER),
  };
}

async function waitForReactors(pool: Pool, position: number): Promise<void> {
  while ((await lowestCheckpoint(pool, REACTORS)) < position) await sleep(5);
}

function usageOf(requests: readonly Received[]): Pick<VariantRun, 'byPurpose' | 'total'> {
  const byPurpose: Record<string, Usage> = {};
  const total: Usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  for (const request of requests) {
    const usage = (byPurpose[request.purpose] ??= {
      calls: 0,
      promptTokens: 0,
      completionTokens: 0,
    });
    const prompt = countTokens(request.body.messages.map((m) => m.content).join('\n'), TOKENIZER);
    const completion = countTokens(request.content ?? '', TOKENIZER);
    for (const target of [usage, total]) {
      target.calls += 1;
      target.promptTokens += prompt;
      target.completionTokens += completion;
    }
  }
  return { byPurpose, total: { ...total, promptTokens: round(total.promptTokens, 0) } };
}
