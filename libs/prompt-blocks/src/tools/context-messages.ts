import { LOCALES } from '@engram/domain';
import type { AgentContext } from '../context/build-context';
import { CONTEXT_HEADINGS } from '../context/headings';

/** A message as the OpenAI and Anthropic chat APIs take it (Anthropic: the system one apart). */
export type ChatMessage = Readonly<{ role: 'system' | 'user' | 'assistant'; content: string }>;

const LIVE_WINDOW_HEADINGS: ReadonlySet<string> = new Set(
  LOCALES.map((locale) => CONTEXT_HEADINGS[locale].liveWindow),
);

/**
 * The context as chat messages: the system prompt without its live-window block, then the live
 * window's messages as user and assistant turns, oldest first, their text verbatim (each in its
 * own turn, so nothing anybody typed is read as the system's). Blocks are separated by one blank
 * line and never hold one (quoted blank lines are a lone ">"), so the block whose first line is
 * the live-window heading is exactly what the turns replace.
 */
export function contextMessages(context: AgentContext): ChatMessage[] {
  const system = context.systemPrompt
    .split('\n\n')
    .filter((block) => !LIVE_WINDOW_HEADINGS.has(block.split('\n', 1)[0] ?? ''))
    .join('\n\n');
  return [
    { role: 'system', content: system },
    ...context.liveWindow.map((message) => ({ role: message.role, content: message.text })),
  ];
}
