import { loadConfig } from '@engram/config';
import { parseCliArgs } from './args';
import { tokenCommand } from './commands/token';

const say = (message: string) => process.stderr.write(`${message}\n`);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const token = argv[0] === 'token' ? parseCliArgs(argv) : undefined;
  if (token !== undefined && !token.values.help) {
    // A token needs the secret only: no database, and none of the modules below (well under a second).
    return tokenCommand(loadConfig(), token, {
      token: (text) => process.stdout.write(`${text}\n`),
      note: say,
    });
  }
  const mcp = argv[0] === 'mcp' ? parseCliArgs(argv) : undefined;
  if (mcp !== undefined && !mcp.values.help) {
    // A client of a running Engram over HTTP: no database, and stdout is the MCP channel.
    const { mcpCommand } = await import('./commands/mcp.js');
    return mcpCommand(process.env, say);
  }
  const { runRuntimeCommand } = await import('./runtime-commands.js');
  await runRuntimeCommand(argv, () => loadConfig(), say);
}

main().catch((error: unknown) => {
  process.stderr.write(`engram: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
