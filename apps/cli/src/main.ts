import 'reflect-metadata';
import { loadConfig } from '@engram/config';
import { prepareRuntime } from '@engram/platform';
import { parseCliArgs } from './args';
import { REBUILD_USAGE, rebuildCommand } from './commands/rebuild';
import { TOKEN_USAGE, tokenCommand } from './commands/token';

const USAGE = `engram <command>

  ${TOKEN_USAGE}
  ${REBUILD_USAGE}
  migrate            apply pending database migrations`;

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2));
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
