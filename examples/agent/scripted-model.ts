import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the example's model receives: the chat messages of an OpenAI chat completions request. */
export type ChatRequest = {
  messages: Array<{ role: string; content?: string | null; tool_call_id?: string }>;
  tools?: Array<{ function: { name: string } }>;
};

/** One scripted answer: words for the user, or a tool call. */
export type ModelTurn = { say: string } | { call: string; args: Record<string, unknown> };

/**
 * A stand-in for an LLM: a local OpenAI-compatible endpoint (`POST /v1/chat/completions`) answering
 * with the next turn of a script, each computed from the request (so a tool call can use what an
 * earlier tool answered). It lets the example run offline, with the `openai` package as a real agent
 * would use it.
 */
export async function startScriptedModel(
  script: ReadonlyArray<(request: ChatRequest) => ModelTurn>,
): Promise<{ baseURL: string; requests: ChatRequest[]; close: () => Promise<void> }> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const next = script[requests.length];
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions') || next === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: 'not scripted', type: 'invalid_request_error' } }),
        );
        return;
      }
      const request = JSON.parse(Buffer.concat(parts).toString('utf8')) as ChatRequest;
      requests.push(request);
      try {
        const body = JSON.stringify(completion(next(request), requests.length));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      } catch (error) {
        // A script that cannot go on says why, as an API error the agent sees.
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error), type: 'server_error' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function completion(turn: ModelTurn, index: number) {
  const message =
    'say' in turn
      ? { role: 'assistant', content: turn.say, refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: `call_${index}`,
              type: 'function',
              function: { name: turn.call, arguments: JSON.stringify(turn.args) },
            },
          ],
        };
  return {
    id: `chatcmpl-scripted-${index}`,
    object: 'chat.completion',
    created: 1780000000,
    model: 'scripted',
    choices: [
      {
        index: 0,
        message,
        finish_reason: 'say' in turn ? 'stop' : 'tool_calls',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}
