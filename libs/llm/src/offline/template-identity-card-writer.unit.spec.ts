import { identityCard, TemplateIdentityCardWriter } from './template-identity-card-writer';

describe('TemplateIdentityCardWriter', () => {
  it('groups the memories by kind under French headings, in the kinds’ order', () => {
    expect(
      identityCard({
        locale: 'fr',
        memories: [
          { kind: 'fact', content: "L'utilisateur habite à Lyon." },
          { kind: 'identity', content: "L'utilisateur s'appelle Marie." },
          {
            kind: 'commitment',
            content: "L'utilisateur doit appeler Delphine.",
            dueAt: '2026-06-12T07:00:00.000Z',
          },
          {
            kind: 'commitment',
            content: "L'utilisateur doit rendre son rapport.",
            dueAt: '2026-06-10T07:00:00.000Z',
          },
          { kind: 'commitment', content: "L'utilisateur doit racheter du café." },
          { kind: 'preference', content: "L'utilisateur préfère les réponses courtes." },
          { kind: 'ongoing', content: "L'utilisateur prépare un marathon." },
          { kind: 'context', content: "L'équipe de l'utilisateur utilise Scrum." },
          { kind: 'fact', content: "l'utilisateur habite a Lyon" },
        ],
      }),
    ).toBe(
      [
        '## Identité',
        '',
        "- L'utilisateur s'appelle Marie.",
        '',
        '## Préférences',
        '',
        "- L'utilisateur préfère les réponses courtes.",
        '',
        '## En cours',
        '',
        "- L'utilisateur prépare un marathon.",
        '',
        '## Engagements',
        '',
        "- L'utilisateur doit rendre son rapport. (échéance : 2026-06-10)",
        "- L'utilisateur doit appeler Delphine. (échéance : 2026-06-12)",
        "- L'utilisateur doit racheter du café.",
        '',
        '## Faits',
        '',
        "- L'utilisateur habite à Lyon.",
        '',
        '## Contexte',
        '',
        "- L'équipe de l'utilisateur utilise Scrum.",
      ].join('\n'),
    );
  });

  it('uses English headings and leaves out empty sections', () => {
    expect(
      identityCard({
        locale: 'en',
        memories: [
          {
            kind: 'commitment',
            content: 'The user needs to call Sam.',
            dueAt: '2026-06-12T07:00:00.000Z',
          },
          { kind: 'identity', content: "The user's name is Sam." },
        ],
      }),
    ).toBe(
      [
        '## Identity',
        '',
        "- The user's name is Sam.",
        '',
        '## Commitments',
        '',
        '- The user needs to call Sam. (due 2026-06-12)',
      ].join('\n'),
    );
  });

  it('says so when there is nothing yet', async () => {
    expect(await new TemplateIdentityCardWriter().write({ locale: 'fr', memories: [] })).toEqual({
      ok: true,
      value: 'Aucune information mémorisée pour l’instant.',
      model: 'offline-rules',
      usage: { promptTokens: 0, completionTokens: 0 },
    });
    expect(identityCard({ locale: 'en', memories: [] })).toBe('Nothing remembered yet.');
  });
});
