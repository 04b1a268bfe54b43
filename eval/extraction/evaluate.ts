import type { ConversationLine, MemoryExtractor } from '@engram/llm';
import type { EvalTurn } from './dev-set';
import type { ScoredTurn } from './score';

/** Extraction runs in the user's zone; the fixture's sessions are dated so this is stable. */
const TIME_ZONE = 'Europe/Paris';

/**
 * Runs the extractor over every turn as the extraction reactor would: each session's earlier turns
 * as recent context, the memories already extracted for that user as existing memories. Users run
 * side by side (`concurrency` at a time, for the LLM path); a user's turns run in order.
 */
export async function evaluate(
  extractor: MemoryExtractor,
  turns: readonly EvalTurn[],
  concurrency = 1,
): Promise<ScoredTurn[]> {
  const byUser = new Map<string, EvalTurn[]>();
  for (const turn of turns) {
    const key = `${turn.locale}:${turn.user}`;
    byUser.set(key, [...(byUser.get(key) ?? []), turn]);
  }
  const results = new Map<EvalTurn, ScoredTurn>();
  const queue = [...byUser.values()];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      for (const scored of await evaluateUser(extractor, next)) results.set(scored.turn, scored);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return turns.map((turn) => results.get(turn)!);
}

async function evaluateUser(
  extractor: MemoryExtractor,
  turns: readonly EvalTurn[],
): Promise<ScoredTurn[]> {
  const scored: ScoredTurn[] = [];
  const memories: { kind: ScoredTurn['predicted'][number]['kind']; content: string }[] = [];
  let session = '';
  let recent: ConversationLine[] = [];
  for (const turn of turns) {
    if (turn.session !== session) {
      session = turn.session;
      recent = [];
    }
    const message: ConversationLine = { role: 'user', text: turn.text, occurredAt: turn.at };
    const outcome = await extractor.extract({
      message,
      locale: turn.locale,
      timeZone: TIME_ZONE,
      recentMessages: recent,
      existingMemories: [...memories],
    });
    const predicted = outcome.ok
      ? outcome.value.map(({ kind, content }) => ({ kind, content }))
      : [];
    scored.push({ turn, predicted, ...(outcome.ok ? {} : { failed: outcome.reason }) });
    memories.push(...predicted);
    recent = [...recent, message];
  }
  return scored;
}
