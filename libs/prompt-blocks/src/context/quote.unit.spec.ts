import { quoteLine, quoteSanitized, quoteVerbatim, splitLines } from './quote';

describe('splitLines', () => {
  it('splits at every kind of line break', () => {
    expect(splitLines('a\nb\r\nc\rd\u2028e\u2029f\u0085g\vh\fi')).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i',
    ]);
  });
});

describe('quoteLine', () => {
  it('prefixes a line, and leaves no trailing space on an empty one', () => {
    expect(quoteLine('abc')).toBe('> abc');
    expect(quoteLine('')).toBe('>');
  });
});

describe('quoteVerbatim', () => {
  it('quotes every line and changes nothing else but bracketed headings', () => {
    expect(quoteVerbatim("[Fiche d'identite]\n  - item [x]\n\nfin  ")).toEqual([
      "> ⟦Fiche d'identite⟧",
      '>   - item [x]',
      '>',
      '> fin  ',
    ]);
  });

  it('turns every line break into a line and drops blank lines at both ends', () => {
    expect(quoteVerbatim('\n \nun\u2028deux\r\ntrois\n\n')).toEqual(['> un', '> deux', '> trois']);
    expect(quoteVerbatim('   ')).toEqual([]);
  });
});

describe('quoteSanitized', () => {
  it('neutralises square brackets and invisible characters, keeping the indentation', () => {
    expect(quoteSanitized('## Titre\n\n- a [lien](x)\n  - b\u200B\t c\n[Identity card]')).toEqual([
      '> ## Titre',
      '>',
      '> - a ⟦lien⟧(x)',
      '>   - b c',
      '> ⟦Identity card⟧',
    ]);
  });

  it('collapses runs of blank lines and drops them at both ends', () => {
    expect(quoteSanitized('\n\na\n\n \n\nb\n\n')).toEqual(['> a', '>', '> b']);
    expect(quoteSanitized(' \n\u200B\n')).toEqual([]);
  });
});
