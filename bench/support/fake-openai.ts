import { once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible chat completions endpoint (POST /v1/chat/completions) for tests and
 * benchmarks: no real LLM is ever reached. It records every request with its parsed body and answers from a script.
 *
 * Which answer a request gets, first match wins:
 * 1. failing mode (`failWith(503)`): every call answers that HTTP error, until `recover()`;
 * 2. a responder set for the request's purpose (`respond('extraction', …)`), the purpose being read
 *    from `response_format.json_schema.name`;
 * 3. the sequence set by `answer(…)`, one step per request, the last step repeating;
 * 4. a valid empty answer of the purpose (no candidates, a fixed summary, a fixed card).
 */

export type Purpose = 'extraction' | 'summary' | 'identity_card' | 'unknown';

/** The structured-output schema names the OpenAI-backed Llm sends (libs/llm/src/openai). */
export const SCHEMA_PURPOSES: Readonly<Record<string, Purpose>> = {
  memory_candidates: 'extraction',
  conversation_summary: 'summary',
  identity_card: 'identity_card',
};

export type Scripted = Readonly<{
  status?: number;
  /** the assistant message content of a 200 answer */
  content?: string;
  refusal?: string;
  delayMs?: number;
  headers?: Record<string, string>;
}>;

export type ChatRequest = Readonly<{
  model: string;
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: object } };
  messages: readonly Readonly<{ role: string; content: string }>[];
  max_completion_tokens?: number;
}>;

export type Received = Readonly<{
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatRequest;
  purpose: Purpose;
  /** the HTTP status it was answered with */
  status: number;
  /** the assistant message content of a 200 answer */
  content?: string;
  /** when it arrived (Date.now()) */
  at: number;
}>;

/** Answers a request of one purpose; undefined falls through to the sequence or the default. */
export type Responder = (request: Received) => Scripted | undefined;

const DEFAULT_ANSWERS: Readonly<Record<Purpose, Scripted>> = {
  extraction: { content: JSON.stringify({ candidates: [] }) },
  summary: { content: JSON.stringify({ summary: 'Résumé de la conversation.' }) },
  identity_card: { content: JSON.stringify({ markdown: '## Identité' }) },
  unknown: { status: 400 },
};

export class FakeOpenAi {
  readonly received: Received[] = [];
  private script: Scripted[] = [];
  private readonly responders = new Map<Purpose, Responder>();
  private failing: Scripted | undefined;
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      request.on('end', () => {
        const path = request.url ?? '';
        let body: ChatRequest;
        try {
          body = JSON.parse(raw) as ChatRequest;
        } catch {
          send(response, 400, error(400, 'the body is not JSON'));
          return;
        }
        const purpose = purposeOf(body);
        const partial = { path, headers: request.headers, body, purpose, at: Date.now() };
        const step =
          request.method !== 'POST' || path !== '/v1/chat/completions'
            ? { status: 404 }
            : this.stepFor({ ...partial, status: 200 });
        const status = step.status ?? 200;
        this.received.push({
          ...partial,
          status,
          ...(step.content === undefined ? {} : { content: step.content }),
        });
        const answer = () => {
          if (response.destroyed) return;
          send(response, status, status === 200 ? completion(step) : error(status), step.headers);
        };
        if (step.delayMs === undefined) answer();
        else setTimeout(answer, step.delayMs);
      });
    });
  }

  /** Listens on 127.0.0.1 on a free port; answers the base URL to give the SDK (`…/v1`). */
  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return this.baseUrl;
  }

  /** `http://127.0.0.1:<port>`, without the `/v1` of the API. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get baseUrl(): string {
    return `${this.url}/v1`;
  }

  /** Answers every purpose from this sequence (the last step repeats) and forgets what was received. */
  answer(...script: Scripted[]): void {
    this.script = script;
    this.received.length = 0;
  }

  /** Answers the requests of one purpose: a fixed answer, or a function of the request. */
  respond(purpose: Purpose, responder: Responder | Scripted): void {
    this.responders.set(purpose, typeof responder === 'function' ? responder : () => responder);
  }

  /** Every call answers this HTTP error (a 500 or 503 outage by default) until `recover()`. */
  failWith(status = 503, headers?: Record<string, string>): void {
    this.failing = { status, ...(headers ? { headers } : {}) };
  }

  recover(): void {
    this.failing = undefined;
  }

  /** The requests received, of one purpose or all. */
  requests(purpose?: Purpose): Received[] {
    return purpose === undefined
      ? [...this.received]
      : this.received.filter((r) => r.purpose === purpose);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private stepFor(request: Received): Scripted {
    if (this.failing) return this.failing;
    const scripted = this.responders.get(request.purpose)?.(request);
    if (scripted) return scripted;
    if (this.script.length > 0) {
      return this.script.length > 1 ? this.script.shift()! : this.script[0]!;
    }
    return DEFAULT_ANSWERS[request.purpose];
  }
}

/** The JSON between <data> and </data> of a request's first user message (what the model is given). */
export function promptData<T = Record<string, unknown>>(request: Received): T {
  const user = request.body.messages.find((m) => m.role === 'user')?.content ?? '';
  const data = /<data>\n([\s\S]*)\n<\/data>/.exec(user)?.[1];
  if (data === undefined) throw new Error('the request has no <data> section');
  return JSON.parse(data) as T;
}

function purposeOf(body: unknown): Purpose {
  const name = (body as Partial<ChatRequest> | null)?.response_format?.json_schema?.name;
  return (name !== undefined && SCHEMA_PURPOSES[name]) || 'unknown';
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function error(status: number, message = `scripted ${status}`) {
  return {
    error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null },
  };
}

function completion(step: Scripted) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1780000000,
    model: 'gpt-test-2026-06-01',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: step.content ?? null,
          refusal: step.refusal ?? null,
        },
        finish_reason: 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
  };
}
