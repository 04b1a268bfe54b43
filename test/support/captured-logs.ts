import type { Logger } from 'pino';
import { createEngramLogger } from '@engram/observability';

/** The API's JSON logger at info, writing into `written` (one string a line) for a test to read. */
export function capturedLogs(): { logger: Logger; written: string[] } {
  const written: string[] = [];
  const logger = createEngramLogger({
    level: 'info',
    service: 'engram-api',
    stream: { write: (line: string) => void written.push(line) },
  });
  return { logger, written };
}
