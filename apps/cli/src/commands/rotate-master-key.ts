import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MASTER_KEY_BYTES, parseMasterKey, saveLocalMasterKey } from '@engram/config';
import { KeyStore, type RewrapResult } from '@engram/crypto';
import { createResilientPool } from '@engram/event-store';
import type { Runtime } from '@engram/platform';

export const ROTATE_MASTER_KEY_COMMAND = 'rotate-master-key';

export const ROTATE_MASTER_KEY_USAGE =
  'rotate-master-key [--new <base64 of 32 bytes>]   re-wrap every data key (a new key is generated and printed when not given)';

export type RotateMasterKeyArgs = Readonly<{ newKey: string | undefined; help: boolean }>;

export type Output = Readonly<{ out: (text: string) => void; err: (text: string) => void }>;

const STANDARD_OUTPUT: Output = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Its own options (`--new`), parsed apart from the other commands'. */
export function parseRotateMasterKeyArgs(argv: readonly string[]): RotateMasterKeyArgs {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { new: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (positionals.length > 0) {
    throw new Error(`unexpected "${positionals.join(' ')}". Usage: ${ROTATE_MASTER_KEY_USAGE}`);
  }
  return { newKey: values.new, help: values.help ?? false };
}

/**
 * Master-key rotation: every data key is unwrapped with the current master key and wrapped with the
 * new one, in one transaction; the events are not touched. With the embedded default (master key in
 * the data folder) the secrets file gets the new key; otherwise ENGRAM_MASTER_KEY must be changed.
 * Every running process keeps the old key until restarted: restart them all with the new one (a key
 * created meanwhile with the old master key is re-wrapped by running the rotation again).
 */
export async function rotateMasterKeyCommand(
  runtime: Runtime,
  args: RotateMasterKeyArgs,
  output: Output = STANDARD_OUTPUT,
): Promise<RewrapResult> {
  const generated = args.newKey === undefined;
  const encoded = args.newKey ?? randomBytes(MASTER_KEY_BYTES).toString('base64');
  const newKey = parseMasterKey('--new', encoded);
  // Printed before the rotation: once it commits the database needs this key, whatever happens next.
  if (generated) output.out(`${encoded}\n`);
  // As the API role: data_keys' policies give it every row (the owner is under forced RLS).
  const pool = createResilientPool({
    connectionString: runtime.appUrl,
    application_name: 'engram-cli',
    max: 1,
  });
  let result: RewrapResult;
  try {
    result = await new KeyStore(pool, runtime.masterKey).rewrapAll(runtime.masterKey, newKey);
  } finally {
    await pool.end();
  }
  output.err(
    `Re-wrapped ${result.rewrapped} data keys (${result.alreadyCurrent} already had the new master key, ` +
      `${result.destroyed} destroyed)\n`,
  );
  if (runtime.embedded && runtime.config.masterKey === undefined) {
    saveLocalMasterKey(runtime.config.dataDir, encoded);
    output.err(
      `Saved the new master key in ${join(runtime.config.dataDir, 'secrets.json')}; restart Engram\n`,
    );
  } else {
    output.err(
      'Set ENGRAM_MASTER_KEY to the new key and restart every process (API, workers, CLI)\n',
    );
  }
  return result;
}
