import 'reflect-metadata';
import { loadConfig } from '@engram/config';
import { prepareRuntime } from '@engram/platform';
import { parseCliArgs, type CliArgs } from './args';
import { ERASE_USAGE, eraseCommand } from './commands/erase';
import { EXPORT_USAGE, exportCommand } from './commands/export';
import { PARKED_USAGE, parkedCommand } from './commands/parked';
import { REBUILD_USAGE, rebuildCommand } from './commands/rebuild';
import {
  ROTATE_MASTER_KEY_COMMAND,
  ROTATE_MASTER_KEY_USAGE,
  parseRotateMasterKeyArgs,
  rotateMasterKeyCommand,
  type RotateMasterKeyArgs,
} from './commands/rotate-master-key';
import { TOKEN_USAGE, tokenCommand } from './commands/token';

const USAGE = `engram <command>

  ${TOKEN_USAGE}
  ${REBUILD_USAGE}
  ${EXPORT_USAGE}
  ${ERASE_USAGE}
  ${ROTATE_MASTER_KEY_USAGE}
  ${PARKED_USAGE}
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

async function main(): Promise<void> {
  const { args, rotation } = parse(process.argv.slice(2));
  if (!args.command || args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const runtime = await prepareRuntime(loadConfig(), (message) =>
    process.stderr.write(`${message}\n`),
  );
  try {
    switch (args.command) {
      case 'token':
        return await tokenCommand(runtime, args);
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
        process.stderr.write('Migrations are up to date\n');
        return;
      default:
        throw new Error(`unknown command "${args.command}"\n\n${USAGE}`);
    }
  } finally {
    await runtime.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`engram: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
