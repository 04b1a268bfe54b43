import { exchange, type HttpAnswer } from './http-exchange';

export type { HttpAnswer } from './http-exchange';

/** One HTTP call over a keep-alive connection; rejects on a status outside 2xx. */
export async function call(
  url: string,
  init: Readonly<{ method?: string; token: string; body?: unknown }>,
): Promise<HttpAnswer> {
  const answer = await exchange(url, init);
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: ${answer.status} ${answer.body.slice(0, 300)}`,
    );
  }
  return answer;
}
