import { createHmac } from 'node:crypto';

/**
 * `Engram-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, the timestamp being the
 * `Engram-Timestamp` header (Unix seconds): signed together, a captured delivery cannot be replayed
 * later with a fresh timestamp. `v1` names the scheme, so another can be added beside it.
 */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}
