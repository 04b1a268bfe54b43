import { contentWords, matchTurn, overlap } from './matching';

describe('eval matching', () => {
  it('compares content words without case, accents, function words or inflection', () => {
    expect(contentWords("L'utilisateur a adopté un chiot, il s'appelle Pixel !")).toEqual([
      'adopte',
      'chiot',
      'appelle',
      'pixel',
    ]);
    expect(overlap('painting lately, therapy', 'The user has been painting a lot lately.')).toBe(
      2 / 3,
    );
    expect(overlap('cat named Biscuit', "The user's cats: Biscuit")).toBe(2 / 3);
  });

  it('matches a prediction to the label it covers best, each once, by content and by kind', () => {
    const labels = [
      {
        kind: 'fact' as const,
        alsoKinds: ['ongoing' as const],
        content: 'training chicago marathon',
      },
      { kind: 'identity' as const, content: '34' },
    ];
    const match = matchTurn(labels, [
      { kind: 'ongoing', content: 'The user is training for the Chicago marathon.' },
      { kind: 'ongoing', content: 'The user is training for the Chicago marathon in October.' },
      { kind: 'preference', content: 'The user is 34.' },
    ]);
    expect(match.byContent).toEqual([0, undefined, 1]);
    expect(match.byKind).toEqual([0, undefined, undefined]);
  });

  it('does not match a prediction that shares less than half of the label', () => {
    expect(
      matchTurn(
        [{ kind: 'fact', content: 'nurse pediatric ward hospital' }],
        [{ kind: 'fact', content: 'The user works at the hospital.' }],
      ).byKind,
    ).toEqual([undefined]);
  });
});
