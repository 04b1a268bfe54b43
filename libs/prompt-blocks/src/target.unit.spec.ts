import { classifyTarget, quotedSummary, targetForRecall, targetForRecentBlock } from './target';

describe('classifyTarget', () => {
  it.each([
    ['delphine@acme.fr', 'address'],
    ['Delphine <delphine@acme.fr>', 'address'],
    ['evt_92ab5c7d1e', 'identifier'],
    ['3f2b9c4e-8a1d-4e5f-9b0a-1c2d3e4f5a6b', 'identifier'],
    ['Retour sur Q2', 'title'],
    ['Budget', 'title'],
  ] as const)('%s is an %s', (target, kind) => {
    expect(classifyTarget(target)).toBe(kind);
  });
});

describe('targetForRecentBlock', () => {
  it('shows an address after "à", an identifier shortened in brackets, a title in quotes', () => {
    expect(targetForRecentBlock('delphine@acme.fr', 'fr')).toBe('à delphine@acme.fr');
    expect(targetForRecentBlock('delphine@acme.fr', 'en')).toBe('to delphine@acme.fr');
    expect(targetForRecentBlock('evt_92ab5c7d1e', 'fr')).toBe('(evt_92ab…)');
    expect(targetForRecentBlock('Retour sur Q2', 'fr')).toBe('« Retour sur Q2 »');
    expect(targetForRecentBlock('Retour sur Q2', 'en')).toBe('"Retour sur Q2"');
    expect(targetForRecentBlock('Un titre bien trop long pour tenir dans une ligne', 'fr')).toBe(
      '« Un titre bien trop long pour tenir dans… »',
    );
  });

  it('has nothing to show for no target or a blank one', () => {
    expect(targetForRecentBlock(null, 'fr')).toBeNull();
    expect(targetForRecentBlock(' \n ', 'fr')).toBeNull();
  });
});

describe('targetForRecall', () => {
  it('shows addresses and identifiers bare, titles in quotes', () => {
    expect(targetForRecall('delphine@acme.fr', 'fr')).toBe('delphine@acme.fr');
    expect(targetForRecall('evt_92ab5c7d1e', 'en')).toBe('evt_92ab…');
    expect(targetForRecall('Retour sur Q2', 'fr')).toBe('« Retour sur Q2 »');
    expect(targetForRecall(null, 'fr')).toBeNull();
  });
});

describe('quotedSummary', () => {
  it('quotes a sanitised, shortened summary, or gives null for an empty one', () => {
    expect(quotedSummary('[x]\nabcdef', 'fr', 6)).toBe('« ⟦x⟧ ab… »');
    expect(quotedSummary('', 'en', 10)).toBeNull();
  });
});
