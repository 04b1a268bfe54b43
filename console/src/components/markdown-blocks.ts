/**
 * The small markdown of identity cards (headings, bullet lists, paragraphs, **bold**, *italic*,
 * `code`) as plain data. Rendering builds elements from it, so the text is never parsed as HTML.
 */
export type Inline = Readonly<{ text: string; style?: 'bold' | 'italic' | 'code' }>;

export type Block =
  | Readonly<{ kind: 'heading'; level: number; content: Inline[] }>
  | Readonly<{ kind: 'list'; items: Inline[][] }>
  | Readonly<{ kind: 'paragraph'; content: Inline[] }>;

const HEADING = /^(#{1,6})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;

export function parseMarkdown(markdown: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: Inline[][] | null = null;
  const flush = () => {
    if (paragraph.length > 0)
      blocks.push({ kind: 'paragraph', content: parseInline(paragraph.join(' ')) });
    if (list) blocks.push({ kind: 'list', items: list });
    paragraph = [];
    list = null;
  };
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    const heading = HEADING.exec(line);
    const bullet = BULLET.exec(line);
    if (heading) {
      flush();
      blocks.push({
        kind: 'heading',
        level: heading[1]!.length,
        content: parseInline(heading[2]!),
      });
    } else if (bullet) {
      if (paragraph.length > 0) flush();
      list ??= [];
      list.push(parseInline(bullet[1]!));
    } else if (line.trim() === '') {
      flush();
    } else {
      if (list) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}

const INLINE = /(\*\*[^*]+\*\*|__[^_]+__|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/;

export function parseInline(text: string): Inline[] {
  return text
    .split(INLINE)
    .filter((part) => part !== '')
    .map((part): Inline => {
      if (/^(\*\*|__).+\1$/.test(part)) return { text: part.slice(2, -2), style: 'bold' };
      if (/^`.+`$/.test(part)) return { text: part.slice(1, -1), style: 'code' };
      if (/^([*_]).+\1$/.test(part) && part.length > 2)
        return { text: part.slice(1, -1), style: 'italic' };
      return { text: part };
    });
}
