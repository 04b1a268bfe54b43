import { parseMarkdown } from '../../console/src/components/markdown-blocks';

describe('the console’s identity-card markdown', () => {
  it('reads headings, bullet lists, paragraphs and bold, italic and code', () => {
    expect(
      parseMarkdown('## Préférences\n\n- réponses **courtes**\n* en _français_\n\nUn `mot`.'),
    ).toEqual([
      { kind: 'heading', level: 2, content: [{ text: 'Préférences' }] },
      {
        kind: 'list',
        items: [
          [{ text: 'réponses ' }, { text: 'courtes', style: 'bold' }],
          [{ text: 'en ' }, { text: 'français', style: 'italic' }],
        ],
      },
      {
        kind: 'paragraph',
        content: [{ text: 'Un ' }, { text: 'mot', style: 'code' }, { text: '.' }],
      },
    ]);
  });

  it('keeps HTML as text, for the renderer to put in text nodes', () => {
    expect(parseMarkdown('- <img src=x onerror=alert(1)> **<b>x</b>**')).toEqual([
      {
        kind: 'list',
        items: [[{ text: '<img src=x onerror=alert(1)> ' }, { text: '<b>x</b>', style: 'bold' }]],
      },
    ]);
  });
});
