import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 128 });

export type HttpAnswer = Readonly<{ status: number; body: string }>;

/** One HTTP call over a keep-alive connection; rejects on a status outside 2xx. */
export function call(
  url: string,
  init: Readonly<{ method?: string; token: string; body?: unknown }>,
): Promise<HttpAnswer> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${init.token}`,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve({ status, body });
          else reject(new Error(`${init.method ?? 'GET'} ${url}: ${status} ${body.slice(0, 300)}`));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
