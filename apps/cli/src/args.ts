import { parseArgs } from 'node:util';

export type CliArgs = Readonly<{
  command: string | undefined;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}>;

export function parseCliArgs(argv: readonly string[]): CliArgs {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      ws: { type: 'string' },
      user: { type: 'string' },
      roles: { type: 'string' },
      ttl: { type: 'string' },
      all: { type: 'boolean' },
      reason: { type: 'string' },
      by: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  return { command, values, positionals: rest };
}
