import 'reflect-metadata';
import type { EngramConfig } from '@engram/config';
import { prepareRuntime } from '@engram/platform';
import { parseCliArgs, type CliArgs } from './args';
import { ERASE_USAGE, eraseCommand } from './commands/erase';
import { EXPORT_USAGE, exportCommand } from './commands/export';
import { MCP_USAGE } from './commands/mcp';
import { PARKED_USAGE, parkedCommand } from './commands/parked';
import { REBUILD_USAGE, rebuildCommand } from './commands/rebuild';
import {
  ROTATE_MASTER_KEY_COMMAND,
  ROTATE_MASTER_KEY_USAGE,
  parseRotateMasterKeyArgs,
  rotateMasterKeyCommand,
  type RotateMasterKeyArgs,
} from './commands/rotate-master-key';
import { TOKEN_USAGE } from './commands/token';

export const USAGE = `engram <command>

  ${TOKEN_USAGE}
  ${REBUILD_USAGE}
  ${EXPORT_USAGE}
  ${ERASE_USAGE}
  ${ROTATE_MASTER_KEY_USAGE}
  ${PARKED_USAGE}
  ${MCP_USAGE}
  migrate            apply pending database migrations`;

/** rotate-master-key has options of its own (`--new`), parsed apart from the shared ones. */
function parse(argv: readonly string[]): { args: CliArgs; rotation?: RotateMasterKeyArgs } {
  if (argv[0] !== ROTATE_MASTER_KEY_COMMAND) return { args: parseCliArgs(argv) };
  const rotation = parseRotateMasterKeyArgs(argv.slice(1));
  return {
    args: { command: ROTATE_MASTER_KEY_COMMAND, values: { help: rotation.help }, positionals: [] },
    rotation,
  };
}

/**
 * The commands that work on the database: each runs with the runtime (the configured PostgreSQL or
 * the embedded one, migrated), stopped after it.
 */
export async function runRuntimeCommand(
  argv: readonly string[],
  config: () => EngramConfig,
  say: (message: string) => void,
): Promise<void> {
  const { args, rotation } = parse(argv);
  if (!args.command || args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const runtime = await prepareRuntime(config(), say);
  try {
    switch (args.command) {
      case 'rebuild':
        return await rebuildCommand(runtime, args);
      case 'export':
        return await exportCommand(runtime, args);
      case 'erase':
        return await eraseCommand(runtime, args);
      case 'parked':
        return await parkedCommand(runtime, args);
      case ROTATE_MASTER_KEY_COMMAND:
        await rotateMasterKeyCommand(runtime, rotation ?? parseRotateMasterKeyArgs([]));
        return;
      case 'migrate':
        say('Migrations are up to date');
        return;
      default:
        throw new Error(`unknown command "${args.command}"\n\n${USAGE}`);
    }
  } finally {
    await runtime.stop();
  }
}
