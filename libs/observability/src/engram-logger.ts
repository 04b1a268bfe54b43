import { pino, type DestinationStream, type Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Never written, whatever a log call is given: credentials, and the places where a request carries
 * personal text (body, query string, raw URL). The HTTP serializers already leave them out; this is
 * the second lock.
 */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.url',
  'req.query',
  'req.body',
  'res.body',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'authorization',
  'token',
  '*.token',
  'body',
  '*.body',
];

/** The JSON logger of a process (`service`: engram-api, engram-worker); one line per record. */
export function createEngramLogger(
  options: Readonly<{ level: LogLevel; service: string; stream?: DestinationStream | undefined }>,
): Logger {
  const settings = {
    level: options.level,
    base: { service: options.service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
  };
  return options.stream ? pino(settings, options.stream) : pino(settings);
}
