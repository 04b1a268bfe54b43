import { normalizeContent } from './normalize-content';

describe('normalizeContent', () => {
  it('ignores case, accents, punctuation and spacing', () => {
    expect(normalizeContent("L'utilisateur  préfère   Python !")).toBe(
      'l utilisateur prefere python',
    );
    expect(normalizeContent('l utilisateur prefere python')).toBe('l utilisateur prefere python');
  });
});
