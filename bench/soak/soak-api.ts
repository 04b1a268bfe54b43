import { exchange, type HttpRequest } from '../support/http-exchange';
import type { SoakLog } from './soak-log';

export type Reply<T = Record<string, unknown>> = Readonly<{ status: number; json: T | undefined }>;

/** Calls the API and records each call (operation, status, latency) in the log; never throws. */
export class SoakApi {
  constructor(
    readonly url: string,
    private readonly log: SoakLog,
  ) {}

  async send<T = Record<string, unknown>>(
    operation: string,
    path: string,
    init: HttpRequest,
  ): Promise<Reply<T>> {
    const began = performance.now();
    try {
      const answer = await exchange(`${this.url}${path}`, init);
      this.log.record(operation, answer.status, performance.now() - began, answer.body);
      return { status: answer.status, json: parseJson<T>(answer.body) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.record(operation, 0, performance.now() - began, message);
      return { status: 0, json: undefined };
    }
  }
}

function parseJson<T>(body: string): T | undefined {
  try {
    return JSON.parse(body) as T;
  } catch {
    return undefined;
  }
}
