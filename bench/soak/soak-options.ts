import { parseArgs } from 'node:util';

export type SoakOptions = Readonly<{
  serverUrl: string;
  seconds: number;
  clients: number;
  workers: number;
  chaos: boolean;
  keepDatabase: boolean;
}>;

const USAGE =
  'npm run soak -- [--minutes N | --seconds N] [--clients N] [--workers N] [--no-chaos] [--keep]';

export function parseSoakOptions(argv: readonly string[]): SoakOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      minutes: { type: 'string' },
      seconds: { type: 'string' },
      clients: { type: 'string' },
      workers: { type: 'string' },
      'no-chaos': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  });
  if (values.minutes !== undefined && values.seconds !== undefined) {
    throw new Error(`--minutes or --seconds, not both. Usage: ${USAGE}`);
  }
  const seconds =
    values.seconds !== undefined
      ? positive('--seconds', values.seconds)
      : positive('--minutes', values.minutes ?? '5') * 60;
  return {
    serverUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    seconds,
    clients: Math.round(positive('--clients', values.clients ?? '8')),
    workers: Math.round(positive('--workers', values.workers ?? '2')),
    chaos: !values['no-chaos'],
    keepDatabase: values.keep ?? false,
  };
}

function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, not "${raw}". Usage: ${USAGE}`);
  }
  return value;
}
