import { checkExtractionAnswer } from './extraction-answer';

const valid = {
  kind: 'preference',
  content: "L'utilisateur aime le thé.",
  confidence: 0.8,
  dueAt: null,
};

describe('checkExtractionAnswer', () => {
  it('accepts 0 to 3 valid candidates', () => {
    expect(checkExtractionAnswer({ candidates: [] }, 'Europe/Paris')).toEqual({
      ok: true,
      value: [],
    });
    expect(checkExtractionAnswer({ candidates: [valid] }, 'Europe/Paris')).toEqual({
      ok: true,
      value: [{ kind: 'preference', content: "L'utilisateur aime le thé.", confidence: 0.8 }],
    });
  });

  it('normalizes dueAt to UTC, reading a time without offset in the user’s zone, for commitments only', () => {
    const answer = {
      candidates: [
        {
          kind: 'commitment',
          content: 'Appeler Delphine.',
          confidence: 0.9,
          dueAt: '2026-06-12T09:00:00',
        },
        {
          kind: 'commitment',
          content: 'Rendre le rapport.',
          confidence: 0.9,
          dueAt: '2026-06-12T09:00:00+02:00',
        },
        { kind: 'commitment', content: 'Payer le loyer.', confidence: 0.9, dueAt: '2026-07-01' },
        { kind: 'fact', content: 'Un fait.', confidence: 0.9, dueAt: '2026-06-12T09:00:00Z' },
      ].slice(0, 3),
    };
    expect(checkExtractionAnswer(answer, 'Europe/Paris')).toEqual({
      ok: true,
      value: [
        {
          kind: 'commitment',
          content: 'Appeler Delphine.',
          confidence: 0.9,
          dueAt: '2026-06-12T07:00:00.000Z',
        },
        {
          kind: 'commitment',
          content: 'Rendre le rapport.',
          confidence: 0.9,
          dueAt: '2026-06-12T07:00:00.000Z',
        },
        {
          kind: 'commitment',
          content: 'Payer le loyer.',
          confidence: 0.9,
          dueAt: '2026-07-01T07:00:00.000Z',
        },
      ],
    });
    expect(
      checkExtractionAnswer(
        { candidates: [{ ...valid, kind: 'fact', dueAt: '2026-06-12T09:00:00Z' }] },
        'UTC',
      ),
    ).toEqual({
      ok: true,
      value: [{ kind: 'fact', content: "L'utilisateur aime le thé.", confidence: 0.8 }],
    });
  });

  it.each([
    [[], 'the answer is not an object'],
    [{}, 'candidates is not an array'],
    [{ candidates: [valid, valid, valid, valid] }, 'candidates has 4 items, at most 3'],
    [{ candidates: ['x'] }, 'candidates[0] is not an object'],
    [{ candidates: [{ ...valid, kind: 'hobby' }] }, 'candidates[0].kind is not one of'],
    [{ candidates: [{ ...valid, content: '  ' }] }, 'candidates[0].content must have 1 to 500'],
    [
      { candidates: [{ ...valid, content: 'x'.repeat(501) }] },
      'candidates[0].content must have 1 to 500',
    ],
    [{ candidates: [{ ...valid, confidence: '0.8' }] }, 'candidates[0].confidence is not a number'],
    [{ candidates: [{ ...valid, confidence: 1.2 }] }, 'candidates[0].confidence is outside [0, 1]'],
    [
      { candidates: [{ ...valid, dueAt: 'friday' }] },
      'candidates[0].dueAt is not an ISO date-time',
    ],
    [{ candidates: [{ ...valid, dueAt: 12 }] }, 'candidates[0].dueAt is neither a string nor null'],
  ])('refuses %j', (answer, detail) => {
    const checked = checkExtractionAnswer(answer, 'Europe/Paris');
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toContain(`invalid_schema: ${detail}`);
  });
});
