import { isIdentifier, systemClock } from '@engram/domain';
import { createCodec, createEventStore, type Runtime } from '@engram/platform';
import { eraseUser } from '@engram/gdpr';
import type { CliArgs } from '../args';

export const ERASE_USAGE =
  'erase --ws <workspace> --user <user>   (GDPR erasure: crypto-shredding, irreversible)';

/** The same erasure as `POST /v1/workspaces/{ws}/users/{userId}/erasure`, requested by `cli`. */
export async function eraseCommand(runtime: Runtime, args: CliArgs): Promise<void> {
  const { ws, user } = args.values;
  if (!isIdentifier(ws)) throw new Error(`--ws must be an identifier. Usage: ${ERASE_USAGE}`);
  if (!isIdentifier(user)) throw new Error(`--user must be an identifier. Usage: ${ERASE_USAGE}`);
  const store = createEventStore(runtime, runtime.appUrl, 'engram-cli');
  const { codec, keys, close } = createCodec(runtime, runtime.appUrl, 'engram-cli');
  try {
    const outcome = await eraseUser(
      { store, codec, keys, clock: runtime.clock ?? systemClock },
      ws,
      user,
      'cli',
    );
    process.stderr.write(
      `${ws}/${user} erased: key destroyed, ${outcome.streamsDeleted} stream(s) deleted, erasure recorded at position ${outcome.position}\n`,
    );
  } finally {
    await store.close();
    await close();
  }
}
