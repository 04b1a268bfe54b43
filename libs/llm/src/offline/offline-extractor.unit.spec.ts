import type { ExtractionInput } from '../ports';
import { OfflineExtractor } from './offline-extractor';

const extractor = new OfflineExtractor();

/** Monday 8 June 2026, 18:40 in Paris. */
const MONDAY_EVENING = '2026-06-08T16:40:00Z';

function input(text: string, overrides: Partial<ExtractionInput> = {}): ExtractionInput {
  return {
    message: { role: 'user', text, occurredAt: MONDAY_EVENING },
    locale: 'fr',
    timeZone: 'Europe/Paris',
    recentMessages: [],
    existingMemories: [],
    ...overrides,
  };
}

async function extract(text: string, overrides: Partial<ExtractionInput> = {}) {
  const outcome = await extractor.extract(input(text, overrides));
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.value;
}

describe('OfflineExtractor', () => {
  describe('the examples of seed 002', () => {
    it('reads a preference', async () => {
      expect(
        await extract(
          "Je préfère recevoir des exemples de code en Python plutôt qu'en pseudo-code.",
        ),
      ).toEqual([
        {
          kind: 'preference',
          content:
            "L'utilisateur préfère recevoir des exemples de code en Python plutôt qu'en pseudo-code.",
          confidence: 0.9,
        },
      ]);
    });

    it('reads a fact, the second clause completing the first', async () => {
      expect(
        await extract('Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.'),
      ).toEqual([
        {
          kind: 'fact',
          content: "L'utilisateur est CTO chez StartupCorp et construit une plateforme SaaS.",
          confidence: 0.9,
        },
      ]);
    });

    it('reads a context about next month’s launch', async () => {
      const [candidate, ...others] = await extract(
        "Nous lançons notre produit le mois prochain, donc j'ai besoin que tout soit prêt rapidement.",
      );
      expect(others).toEqual([]);
      expect(candidate?.kind).toBe('context');
      expect(candidate?.content).toMatch(/^L'utilisateur lance son produit le mois prochain/);
      expect(candidate?.content).toContain('rapidement');
      expect(candidate?.confidence).toBeGreaterThanOrEqual(0.8);
    });
  });

  describe('French patterns', () => {
    it.each([
      ["Je m'appelle Marie Dupont.", 'identity', "L'utilisateur s'appelle Marie Dupont."],
      ["j'habite à Nantes", 'fact', "L'utilisateur habite à Nantes."],
      ['Je travaille chez Airbus.', 'fact', "L'utilisateur travaille chez Airbus."],
      ['Je suis infirmière.', 'fact', "L'utilisateur est infirmière."],
      ["J'aime les réponses courtes.", 'preference', "L'utilisateur aime les réponses courtes."],
      ["Je n'aime pas les emojis.", 'preference', "L'utilisateur n'aime pas les emojis."],
      [
        'Je travaille sur une appli de covoiturage.',
        'ongoing',
        "L'utilisateur travaille sur une appli de covoiturage.",
      ],
    ])('%s → %s', async (text, kind, content) => {
      expect(await extract(text)).toEqual([expect.objectContaining({ kind, content })]);
    });

    it('gives identity, fact and commitment for one message that says all three', async () => {
      const candidates = await extract(
        "Je m'appelle Paul, j'habite à Lyon et rappelle-moi d'appeler Delphine vendredi.",
      );
      expect(candidates).toEqual([
        { kind: 'identity', content: "L'utilisateur s'appelle Paul.", confidence: 0.9 },
        { kind: 'fact', content: "L'utilisateur habite à Lyon.", confidence: 0.85 },
        {
          kind: 'commitment',
          content: "L'utilisateur doit appeler Delphine le vendredi 12 juin.",
          confidence: 0.9,
          dueAt: '2026-06-12T07:00:00.000Z',
        },
      ]);
    });

    it('resolves "vendredi" to next Friday at 09:00 in the user’s zone', async () => {
      expect(await extract("rappelle-moi d'appeler Delphine vendredi")).toEqual([
        {
          kind: 'commitment',
          content: "L'utilisateur doit appeler Delphine le vendredi 12 juin.",
          confidence: 0.9,
          dueAt: '2026-06-12T07:00:00.000Z',
        },
      ]);
    });

    it('keeps a stated time and resolves "demain"', async () => {
      const [candidate] = await extract(
        "Tu peux me rappeler demain à 14h30 d'envoyer le devis à Karim ?",
      );
      expect(candidate).toEqual({
        kind: 'commitment',
        content: "L'utilisateur doit envoyer le devis à Karim le mardi 9 juin à 14h30.",
        confidence: 0.9,
        dueAt: '2026-06-09T12:30:00.000Z',
      });
    });

    it('resolves in the given zone, not in UTC', async () => {
      const [candidate] = await extract('remind me to call mom on Friday', {
        timeZone: 'America/New_York',
        locale: 'en',
      });
      expect(candidate?.dueAt).toBe('2026-06-12T13:00:00.000Z');
    });

    it('says "vendredi" on a Friday means the next one', async () => {
      const [candidate] = await extract("rappelle-moi d'arroser les plantes vendredi", {
        message: {
          role: 'user',
          text: "rappelle-moi d'arroser les plantes vendredi",
          occurredAt: '2026-06-12T08:00:00Z',
        },
      });
      expect(candidate?.dueAt).toBe('2026-06-19T07:00:00.000Z');
    });

    it.each([
      ['on the Monday before', MONDAY_EVENING],
      [
        'months after it, in the year where it is a Friday (not Saturday 12 June 2027)',
        '2026-12-01T10:00:00Z',
      ],
    ])('reads "vendredi 12 juin" as Friday 12 June 2026 %s', async (_when, occurredAt) => {
      const text = "Rappelle-moi d'appeler Delphine vendredi 12 juin";
      expect(await extract(text, { message: { role: 'user', text, occurredAt } })).toEqual([
        {
          kind: 'commitment',
          content: "L'utilisateur doit appeler Delphine le vendredi 12 juin.",
          confidence: 0.9,
          dueAt: '2026-06-12T07:00:00.000Z',
        },
      ]);
    });

    it('keeps a reminder without a date, with no dueAt and a lower confidence', async () => {
      expect(await extract('Rappelle-moi de racheter du café.')).toEqual([
        { kind: 'commitment', content: "L'utilisateur doit racheter du café.", confidence: 0.75 },
      ]);
    });

    it('does not take "rappelle-moi comment…" for a task', async () => {
      expect(await extract('Rappelle-moi comment on inverse une liste en Python ?')).toEqual([]);
    });
  });

  describe('English patterns', () => {
    it.each([
      ['My name is John Smith.', 'identity', "The user's name is John Smith."],
      ['I live in Manchester.', 'fact', 'The user lives in Manchester.'],
      ['I work for the NHS.', 'fact', 'The user works for the NHS.'],
      ["I'm a data scientist.", 'fact', 'The user is a data scientist.'],
      ['I prefer tabs over spaces.', 'preference', 'The user prefers tabs over spaces.'],
      ['I like dark mode.', 'preference', 'The user likes dark mode.'],
      ['I hate meetings before 10am.', 'preference', 'The user hates meetings before 10am.'],
      [
        "I'm working on a thesis about bees.",
        'ongoing',
        'The user is working on a thesis about bees.',
      ],
    ])('%s → %s', async (text, kind, content) => {
      expect(await extract(text, { locale: 'en' })).toEqual([
        expect.objectContaining({ kind, content }),
      ]);
    });

    it('resolves "tomorrow" and "on Friday"', async () => {
      const [tomorrow] = await extract('Remind me to renew my passport tomorrow.', {
        locale: 'en',
      });
      expect(tomorrow).toEqual({
        kind: 'commitment',
        content: 'The user needs to renew their passport on Tuesday, June 9.',
        confidence: 0.9,
        dueAt: '2026-06-09T07:00:00.000Z',
      });
      const [friday] = await extract('remind me to send the report on Friday', { locale: 'en' });
      expect(friday?.dueAt).toBe('2026-06-12T07:00:00.000Z');
    });
  });

  it('writes in the language of the message, whatever the locale', async () => {
    const [candidate] = await extract('I live in Dublin.', { locale: 'fr' });
    expect(candidate?.content).toBe('The user lives in Dublin.');
  });

  it.each([
    'Bonjour !',
    'Merci beaucoup, super clair.',
    'Tu peux me traduire ce paragraphe en anglais ?',
    'Comment je fais pour inverser une liste en Python ?',
    "Écris-moi un mail de relance pour un client qui n'a pas payé.",
    'Je préfère la deuxième version.',
    'Hi there!',
    'Thanks a lot.',
    'What time is it in Tokyo?',
    'Can you summarize this article for me?',
    'I like that one better.',
  ])('finds nothing in small talk, questions and one-off requests: %s', async (text) => {
    expect(await extract(text)).toEqual([]);
  });

  it('proposes again what an existing memory says, so that the memory is reinforced', async () => {
    expect(
      await extract("J'habite à Nantes.", {
        existingMemories: [{ kind: 'fact', content: "L'utilisateur habite à Nantes." }],
      }),
    ).toEqual([
      expect.objectContaining({ kind: 'fact', content: "L'utilisateur habite à Nantes." }),
    ]);
  });

  it('keeps at most 3 candidates, the most confident ones, in message order', async () => {
    const candidates = await extract(
      "Je m'appelle Léa. J'ai 31 ans. J'habite à Rennes. J'aime bien le jazz. Je prépare un voyage au Japon.",
    );
    expect(candidates.map((candidate) => candidate.content)).toEqual([
      "L'utilisateur s'appelle Léa.",
      "L'utilisateur a 31 ans.",
      "L'utilisateur habite à Rennes.",
    ]);
  });

  it('reads only user messages', async () => {
    expect(
      await extract("Je m'appelle Gilbert.", {
        message: { role: 'assistant', text: "Je m'appelle Gilbert.", occurredAt: MONDAY_EVENING },
      }),
    ).toEqual([]);
  });

  it('answers with usage zeros and the offline model', async () => {
    const outcome = await extractor.extract(input('Bonjour'));
    expect(outcome).toEqual({
      ok: true,
      value: [],
      model: 'offline-rules',
      usage: { promptTokens: 0, completionTokens: 0 },
    });
  });
});
