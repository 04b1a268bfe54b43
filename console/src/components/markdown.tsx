import { parseMarkdown, type Block, type Inline } from './markdown-blocks';

/**
 * Markdown shown as elements built from parsed blocks: every piece of text goes in as a text node
 * (Preact escapes it), no HTML string is ever injected. The source's top heading level becomes
 * `topHeading`, so the card's headings sit under the page's own.
 */
export function Markdown({ source, topHeading = 3 }: { source: string; topHeading?: number }) {
  const blocks = parseMarkdown(source);
  const shift = topHeading - Math.min(6, ...blocks.map(headingLevel));
  return (
    <div class="markdown">
      {blocks.map((block, index) => {
        if (block.kind === 'heading') {
          const Heading = `h${Math.max(1, Math.min(6, block.level + shift))}` as 'h3';
          return (
            <Heading key={index}>
              <Inlines parts={block.content} />
            </Heading>
          );
        }
        if (block.kind === 'list') {
          return (
            <ul key={index}>
              {block.items.map((item, itemIndex) => (
                <li key={itemIndex}>
                  <Inlines parts={item} />
                </li>
              ))}
            </ul>
          );
        }
        return (
          <p key={index}>
            <Inlines parts={block.content} />
          </p>
        );
      })}
    </div>
  );
}

function headingLevel(block: Block): number {
  return block.kind === 'heading' ? block.level : 6;
}

function Inlines({ parts }: { parts: Inline[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.style === 'bold' ? (
          <strong key={index}>{part.text}</strong>
        ) : part.style === 'italic' ? (
          <em key={index}>{part.text}</em>
        ) : part.style === 'code' ? (
          <code key={index}>{part.text}</code>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
