import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_MAX_ATTEMPTS, retryDelayMs } from './webhook-retries';
import { webhookSignature } from './webhook-signature';

type Verify = (secret: string, headers: Record<string, string>, rawBody: string) => boolean;

/** The verification snippet of the README's "Webhooks" section, as a receiver would paste it. */
function readmeVerifier(): Verify {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Webhooks'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README: no js snippet in the Webhooks section');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the README's own code, run as written
  return new Function('require', `${code}\nreturn verifyEngramWebhook;`)(require) as Verify;
}

describe('webhook signature', () => {
  const secret = 'whsec_test';
  const body = '{"id":"d1","type":"user.erased"}';
  const now = Math.floor(Date.now() / 1000);
  const headers = (timestamp: number, signature: string) => ({
    'engram-timestamp': String(timestamp),
    'engram-signature': signature,
  });

  it('is v1= and the hex HMAC-SHA256 of "<timestamp>.<body>"', () => {
    expect(webhookSignature(secret, 1_780_934_400, body)).toBe(
      'v1=' + createHmac('sha256', secret).update(`1780934400.${body}`).digest('hex'),
    );
  });

  it("verifies with the README's snippet; a changed body, secret or an old timestamp does not", () => {
    const verify = readmeVerifier();
    expect(verify(secret, headers(now, webhookSignature(secret, now, body)), body)).toBe(true);
    expect(verify(secret, headers(now, webhookSignature(secret, now, body)), `${body} `)).toBe(
      false,
    );
    expect(verify('whsec_other', headers(now, webhookSignature(secret, now, body)), body)).toBe(
      false,
    );
    const old = now - 3600;
    expect(verify(secret, headers(old, webhookSignature(secret, old, body)), body)).toBe(false);
  });
});

describe('webhook retries', () => {
  it('waits 30 s, 2 min, 10 min… (±20 %), ten attempts over about a day', () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(30_000);
    expect(retryDelayMs(2, () => 0.5)).toBe(120_000);
    expect(retryDelayMs(1, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, () => 1)).toBe(36_000);
    expect(retryDelayMs(WEBHOOK_MAX_ATTEMPTS, () => 0.5)).toBeUndefined();
    let total = 0;
    for (let attempts = 1; attempts < WEBHOOK_MAX_ATTEMPTS; attempts += 1) {
      total += retryDelayMs(attempts, () => 0.5)!;
    }
    expect(total / 3_600_000).toBeGreaterThan(20);
    expect(total / 3_600_000).toBeLessThan(26);
  });
});
