import { EngramClient, type EngramUser } from '@engram/client';
import OpenAI from 'openai';
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';

export type AgentOptions = {
  /** The Engram API, e.g. http://localhost:3000. */
  engramUrl: string;
  /** An agent token: a JWT with the `agent` role, or a service key. */
  engramToken: string;
  workspace: string;
  /** The OpenAI-compatible endpoint of the model (`…/v1`) and its model name. */
  modelUrl: string;
  model?: string;
  modelKey?: string;
  /** Where the agent says what it does (default: stdout). */
  log?: (line: string) => void;
};

/** One message from the user, on a channel, and what the agent answered after its tool calls. */
export type Turn = { channel: string; sessionId: string; text: string };

/**
 * An agent loop on Engram: each user message is recorded, the context is read as chat messages and
 * sent to the model with Engram's tools; the model's tool calls are routed to Engram by name (no
 * switch), and its answer is recorded too.
 */
export class Agent {
  private readonly engram: EngramClient;
  private readonly model: OpenAI;
  private tools: ChatCompletionTool[] | undefined;

  constructor(
    private readonly options: AgentOptions,
    readonly agentId = 'example-agent',
  ) {
    this.engram = new EngramClient({
      baseUrl: options.engramUrl,
      token: options.engramToken,
      workspace: options.workspace,
    });
    this.model = new OpenAI({
      baseURL: options.modelUrl,
      apiKey: options.modelKey ?? 'none',
      maxRetries: 0,
      timeout: 60_000,
    });
  }

  /** Handles one user message: returns what the agent answered. */
  async handle(userId: string, turn: Turn): Promise<string> {
    const user = this.engram.user(userId);
    const say = this.options.log ?? ((line: string) => console.log(line));
    say(`[${turn.channel}] ${userId}: ${turn.text}`);
    await user.recordMessage({ ...turn, role: 'user', agentId: this.agentId });
    // The system block and the live window (this message last), as the chat API takes them.
    const context = await user.context({
      format: 'messages',
      sessionId: turn.sessionId,
      agentId: this.agentId,
    });
    const messages: ChatCompletionMessageParam[] = context.messages.map((message) =>
      message.role === 'system'
        ? { role: 'system', content: message.content }
        : message.role === 'assistant'
          ? { role: 'assistant', content: message.content }
          : { role: 'user', content: message.content },
    );
    for (let step = 0; step < 8; step++) {
      const completion = await this.model.chat.completions.create({
        model: this.options.model ?? 'gpt-4o-mini',
        messages,
        tools: await this.toolDefinitions(),
      });
      const reply = completion.choices[0]?.message;
      if (reply === undefined) throw new Error('The model answered no choice');
      const calls = (reply.tool_calls ?? []).filter((call) => call.type === 'function');
      if (calls.length === 0) {
        const text = reply.content ?? '';
        await user.recordMessage({ ...turn, role: 'assistant', text, agentId: this.agentId });
        say(`[${turn.channel}] agent: ${text}`);
        return text;
      }
      messages.push({ role: 'assistant', content: reply.content, tool_calls: calls });
      for (const call of calls) {
        const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
        // Routed by name: whatever tool the model picked, Engram runs it.
        const result = await callTool(user, call.function.name, args);
        say(`  tool ${call.function.name}(${call.function.arguments}) → ${summary(result)}`);
        messages.push({ role: 'tool', tool_call_id: call.id, content: result });
      }
    }
    throw new Error('The model kept calling tools');
  }

  private async toolDefinitions(): Promise<ChatCompletionTool[]> {
    this.tools ??= (await this.engram.tools('openai')).map((tool) => ({
      type: 'function',
      function: tool.function,
    }));
    return this.tools;
  }
}

/**
 * The tool's whole answer goes back to the model: its `text` and the JSON beside it, whose ids the
 * model needs to act on what it listed. A refused call (a 4xx) goes back as text, as a tool error would.
 */
async function callTool(
  user: EngramUser,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  try {
    return JSON.stringify(await user.callTool(name, args));
  } catch (error) {
    const status = (error as { status?: number }).status ?? 0;
    if (status >= 400 && status < 500) return `Refused: ${(error as Error).message}`;
    throw error;
  }
}

/** The `text` of a tool's answer, for the log. */
function summary(result: string): string {
  try {
    const text = (JSON.parse(result) as { text?: unknown }).text;
    return typeof text === 'string' ? text : result;
  } catch {
    return result;
  }
}
