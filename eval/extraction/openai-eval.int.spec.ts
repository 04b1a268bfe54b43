import { createLlm } from '@engram/llm';
import { FakeOpenAi, promptData, type Received } from '../../test/support/fake-openai';
import { type EvalTurn, loadDevSet } from './dev-set';
import { evaluate } from './evaluate';
import { renderReport } from './report';
import { contentPrecision, figuresOf, turnPrecision, turnRecall } from './score';

/**
 * The eval's --model path on the whole development set, against a local scripted OpenAI-compatible
 * endpoint (no real LLM is reached). The endpoint answers each turn with that turn's labels, so a
 * perfect extractor is simulated: what is checked is everything between the fixture and the score —
 * the prompts the production extractor builds (language, message, session context, memories so far),
 * the strict schema, the answer checks, and that a turn whose answer is not JSON counts as a failure.
 */

type Data = Readonly<{
  message_to_analyse: { text: string };
  recent_messages: readonly { role: string; text: string }[];
  existing_memories: readonly { kind: string; content: string }[];
}>;

describe('extraction eval through the OpenAI path (scripted local endpoint)', () => {
  const fake = new FakeOpenAi();
  const turns = loadDevSet();
  const byText = new Map(turns.map((turn) => [`${turn.locale}:${turn.text}`, turn]));
  const garbled = turns.find((turn) => turn.locale === 'en' && turn.expected.length > 0)!;
  const languageOf = (request: Received) =>
    request.body.messages[0]?.content.startsWith("Tu es l'extracteur") ? 'fr' : 'en';

  beforeAll(async () => {
    await fake.start();
    fake.respond('extraction', (request) => {
      const text = promptData<Data>(request).message_to_analyse.text;
      const turn = byText.get(`${languageOf(request)}:${text}`);
      if (turn === garbled) return { content: 'Sorry, I only answer in prose.' };
      const candidates = (turn?.expected ?? []).map((label) => ({
        kind: label.kind,
        content: label.content,
        confidence: 0.8,
        dueAt: null,
      }));
      return { content: JSON.stringify({ candidates }) };
    });
  });

  afterAll(() => fake.stop());

  it('scores the labels given back as perfect and a non-JSON answer as one failed turn', async () => {
    const llm = createLlm({
      apiKey: 'test',
      baseUrl: fake.baseUrl,
      model: 'gpt-test',
      maxRetries: 0,
    });
    const scored = await evaluate(llm.extractor, turns, 4);
    const figures = figuresOf(scored);

    expect(fake.requests('extraction').length).toBeGreaterThanOrEqual(turns.length);
    expect(figures.failedTurns).toBe(1);
    expect(scored.find((s) => s.turn === garbled)?.failed).toMatch(/json|schema|invalid/i);
    // Every fact-bearing turn but the failed one is found, and nothing else is created.
    expect(figures.factTurnsFound).toBe(figures.factTurns - 1);
    expect(turnRecall(figures)).toBeGreaterThan(0.99);
    expect(turnPrecision(figures)).toBe(1);
    expect(contentPrecision(figures)).toBe(1);
    expect(renderReport('openai gpt-test', scored)).toContain('held-out  fr');
  });

  it('sends each turn with its language, its session so far and the user memories so far', () => {
    const requests = fake.requests('extraction');
    for (const request of requests) {
      expect(request.body.model).toBe('gpt-test');
      expect(request.body.response_format.json_schema).toMatchObject({
        name: 'memory_candidates',
        strict: true,
      });
    }
    const asked = (turn: EvalTurn) =>
      requests.find(
        (request) =>
          languageOf(request) === turn.locale &&
          promptData<Data>(request).message_to_analyse.text === turn.text,
      );
    // A turn late in a session: its earlier turns are the context, in order.
    const sessionTurns = turns.filter(
      (turn) => turn.session === 'chloe-s2' && turn.locale === 'fr',
    );
    const last = sessionTurns.at(-1)!;
    const data = promptData<Data>(asked(last)!);
    expect(data.recent_messages.map((line) => line.text)).toEqual(
      sessionTurns
        .slice(0, -1)
        .slice(-10)
        .map((turn) => turn.text),
    );
    // Memories from the user's first session are known in the next one.
    const first = turns.find((turn) => turn.session === 'chloe-s1' && turn.expected.length > 0)!;
    expect(data.existing_memories).toContainEqual(
      expect.objectContaining({
        kind: first.expected[0]!.kind,
        content: first.expected[0]!.content,
      }),
    );
    // No memory of another user leaks in.
    const other = turns.find((turn) => turn.user === 'karim' && turn.expected.length > 0)!;
    expect(data.existing_memories.map((memory) => memory.content)).not.toContain(
      other.expected[0]!.content,
    );
  });
});
