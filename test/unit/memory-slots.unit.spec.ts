import { extractCandidates } from '../../libs/llm/src/offline/offline-extractor';
import { gistOf, relateToMemories, slotsOf } from '../../libs/llm/src/offline/memory-slots';
import type { ExistingMemory, ExtractedCandidate } from '../../libs/llm/src/ports';

// The offline side of issue 20: which memory a new one supersedes (slots) or restates (gist). It sits
// here rather than beside memory-slots.ts: the offline folder is another piece of work's.

const fact = (content: string): ExtractedCandidate => ({ kind: 'fact', content, confidence: 0.85 });
const memory = (memoryId: string, content: string): ExistingMemory => ({
  memoryId,
  kind: 'fact',
  content,
});

/** What the offline extractor decides for `text` said after the `existing` memories. */
function decide(text: string, locale: 'fr' | 'en', existing: readonly ExistingMemory[]) {
  return extractCandidates({
    message: { role: 'user', text, occurredAt: '2026-12-01T10:00:00Z' },
    locale,
    timeZone: 'Europe/Paris',
    recentMessages: [],
    existingMemories: existing,
  }).map((candidate) => candidate.decision);
}

describe('memory slots', () => {
  it.each([
    ["L'utilisateur habite à Lyon.", [{ key: 'city', value: 'lyon' }]],
    ["L'utilisateur a déménagé de Lyon à Paris.", [{ key: 'city', value: 'paris' }]],
    ['The user lives in Lyon with his wife.', [{ key: 'city', value: 'lyon' }]],
    ['The user moved to Paris.', [{ key: 'city', value: 'paris' }]],
    ['The user works at Acme.', [{ key: 'employer', value: 'acme' }]],
    ['The user quits Acme.', [{ key: 'employer', value: 'left:acme' }]],
    ['The user is at Globex now.', [{ key: 'employer', value: 'globex' }]],
    [
      "L'utilisateur est CTO chez StartupCorp.",
      [
        { key: 'employer', value: 'startupcorp' },
        { key: 'role', value: 'cto' },
      ],
    ],
    ['The user is vegetarian now.', [{ key: 'diet', value: 'vegetarian' }]],
    ["L'utilisateur est devenue végétalienne.", [{ key: 'diet', value: 'vegan' }]],
    ["L'utilisateur est marié.", [{ key: 'relationship', value: 'married' }]],
    ['The user is single now.', [{ key: 'relationship', value: 'single' }]],
    ['The user is 34 years old.', [{ key: 'age', value: '34' }]],
  ])('%s fills %j', (content, slots) => {
    expect(slotsOf(content)).toEqual(slots);
  });

  it('gives no slot to what is said of someone else, nor to a plain taste', () => {
    expect(slotsOf("The user's sister lives in Lyon.")).toEqual([]);
    expect(slotsOf("La sœur de l'utilisateur habite à Lyon.")).toEqual([]);
    expect(slotsOf('The user loves hiking.')).toEqual([]);
    expect(slotsOf('The user is at the gym.')).toEqual([]);
  });

  it('reads the same gist in other words (fr, en), and not in opposite ones', () => {
    expect(gistOf("L'utilisateur adore la randonnée.")).toBe(
      gistOf("L'utilisateur aime beaucoup randonner."),
    );
    expect(gistOf('The user loves hiking.')).toBe(gistOf('The user enjoys hiking.'));
    expect(gistOf('The user works at Acme.')).toBe(gistOf('The user works for Acme.'));
    expect(gistOf('The user loves hiking.')).not.toBe(gistOf('The user hates hiking.'));
    expect(gistOf('The user loves hiking.')).not.toBe(gistOf('The user loves swimming.'));
    expect(gistOf('The user loves hiking.')).not.toBe(gistOf("The user doesn't like hiking."));
  });

  describe('relateToMemories', () => {
    const lyon = memory('m-lyon', "L'utilisateur habite à Lyon.");
    const acme = memory('m-acme', 'The user works at Acme.');

    it('a contradiction in a slot supersedes (update) the latest memory of that slot', () => {
      const older = memory('m-lyon-old', 'The user lives in Lyon.');
      expect(
        relateToMemories([fact("L'utilisateur a déménagé de Lyon à Paris.")], [older, lyon, acme]),
      ).toEqual([expect.objectContaining({ decision: { action: 'update', memoryId: 'm-lyon' } })]);
    });

    it('the same slot value or the same gist in other words restates (none) that memory', () => {
      expect(relateToMemories([fact("L'utilisateur vit à Lyon.")], [lyon])).toEqual([
        expect.objectContaining({ decision: { action: 'none', memoryId: 'm-lyon' } }),
      ]);
      const hiking = memory('m-hike', 'The user loves hiking.');
      expect(relateToMemories([fact('The user enjoys hiking.')], [hiking])).toEqual([
        expect.objectContaining({ decision: { action: 'none', memoryId: 'm-hike' } }),
      ]);
    });

    it('leaves alone what is new, the same text (its id is the memory’s already), commitments, and memories without an id', () => {
      const candidates = [fact('The user loves hiking.'), fact('The user works at Acme.')];
      expect(relateToMemories(candidates, [acme])).toEqual(candidates);
      const move = fact('The user moved to Paris.');
      expect(
        relateToMemories([move], [{ kind: 'fact', content: 'The user lives in Lyon.' }]),
      ).toEqual([move]);
      const call = {
        ...fact('The user must call the office in Lyon.'),
        kind: 'commitment' as const,
      };
      expect(relateToMemories([call], [lyon])).toEqual([call]);
    });

    it('"left Acme" replaces Acme only', () => {
      const globex = memory('m-globex', 'The user works at Globex.');
      expect(relateToMemories([fact('The user quits Acme.')], [globex])).toEqual([
        fact('The user quits Acme.'),
      ]);
      expect(relateToMemories([fact('The user quits Acme.')], [globex, acme])).toEqual([
        expect.objectContaining({ decision: { action: 'update', memoryId: 'm-acme' } }),
      ]);
    });
  });

  describe('through the offline extractor (the issue’s examples)', () => {
    it.each([
      ["J'ai déménagé de Lyon à Paris", 'fr', "L'utilisateur habite à Lyon."],
      ["I quit Acme, I'm at Globex now", 'en', 'The user works at Acme.'],
      ["I'm vegetarian now", 'en', 'The user eats meat.'],
      ['Je suis végétarien maintenant', 'fr', "L'utilisateur est vegan."],
      ['I live in Paris now', 'en', 'The user lives in Lyon.'],
    ] as const)('%s (%s) supersedes %s', (text, locale, before) => {
      expect(decide(text, locale, [memory('old', before)])).toContainEqual({
        action: 'update',
        memoryId: 'old',
      });
    });

    it.each([
      ["J'aime beaucoup randonner", 'fr', "L'utilisateur adore la randonnée."],
      ['I enjoy hiking', 'en', 'The user loves hiking.'],
      ['Je vis à Lyon', 'fr', "L'utilisateur habite à Lyon."],
    ] as const)('%s (%s) reinforces %s', (text, locale, before) => {
      expect(decide(text, locale, [memory('old', before)])).toEqual([
        { action: 'none', memoryId: 'old' },
      ]);
    });
  });
});
