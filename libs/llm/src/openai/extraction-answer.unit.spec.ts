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

  describe('add / update / none (issue 20)', () => {
    const refs = new Set(['m1', 'm2']);
    const check = (extra: Record<string, unknown>) =>
      checkExtractionAnswer({ candidates: [{ ...valid, ...extra }] }, 'Europe/Paris', refs);

    it('keeps update and none with the memory they name, and adds otherwise', () => {
      expect(check({ action: 'update', memory: 'm2' })).toEqual({
        ok: true,
        value: [expect.objectContaining({ decision: { action: 'update', memoryId: 'm2' } })],
      });
      expect(check({ action: 'none', memory: 'm1' })).toEqual({
        ok: true,
        value: [expect.objectContaining({ decision: { action: 'none', memoryId: 'm1' } })],
      });
      for (const extra of [{ action: 'add', memory: null }, { action: 'add', memory: 'm1' }, {}]) {
        const checked = check(extra);
        expect(checked.ok && checked.value[0]).not.toHaveProperty('decision');
      }
    });

    it.each([
      [{ action: 'update', memory: null }, 'memory must be the id of an existing memory'],
      [{ action: 'none', memory: 'm9' }, 'memory must be the id of an existing memory'],
      [{ action: 'merge', memory: 'm1' }, 'action is not one of add, update, none'],
    ])('refuses %j', (extra, detail) => {
      const checked = check(extra);
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.reason).toContain(detail);
    });
  });
});
