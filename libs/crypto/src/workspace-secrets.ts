import { hkdfSync } from 'node:crypto';
import type { SealedSecret } from '@engram/domain';
import { decrypt, encrypt } from './aes-gcm';
import type { KeyStore } from './key-store';

/**
 * The owner slot of a workspace's own data key in `data_keys`: `~`, which no user id can be (it is not
 * an identifier character), so no user's erasure ever destroys it, and the master-key rotation
 * re-wraps it with the rest.
 */
export const WORKSPACE_KEY_OWNER = '~';

/** HKDF `info` of the secrets key: derived for this purpose alone from the workspace's data key. */
const SECRET_PURPOSE = 'engram/workspace-secret/v1';

/** `name` says what the secret is for (`webhook:{id}`): the AAD, so a sealed secret moved elsewhere does not open. */
function aad(workspaceId: string, name: string): Buffer {
  return Buffer.from(`${workspaceId}\u001f${name}`, 'utf8');
}

function secretsKey(dataKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), SECRET_PURPOSE, 32));
}

/**
 * Secrets that belong to a workspace rather than to a user (webhook signing secrets), sealed with
 * AES-256-GCM under a key derived from the workspace's data key. The event log and the read models
 * hold the sealed form; the API seals (its role may create the key), the worker opens (its role reads
 * keys). Unlike personal fields, these are sealed under no user's key: erasing the admin who
 * registered a webhook leaves its secret readable.
 */
export function workspaceSecrets(keys: Pick<KeyStore, 'keyForWriting' | 'keyForReading'>) {
  return {
    async seal(workspaceId: string, name: string, secret: string): Promise<SealedSecret> {
      const dataKey = await keys.keyForWriting(workspaceId, WORKSPACE_KEY_OWNER);
      const sealed = encrypt(
        secretsKey(dataKey),
        Buffer.from(secret, 'utf8'),
        aad(workspaceId, name),
      );
      return {
        v: 1,
        iv: sealed.iv.toString('base64'),
        tag: sealed.tag.toString('base64'),
        ct: sealed.ct.toString('base64'),
      };
    },

    async open(workspaceId: string, name: string, sealed: SealedSecret): Promise<string> {
      const dataKey = await keys.keyForReading(workspaceId, WORKSPACE_KEY_OWNER);
      if (!dataKey) throw new Error(`${workspaceId} ${name}: the workspace's key was destroyed`);
      try {
        const clear = decrypt(
          secretsKey(dataKey),
          {
            iv: Buffer.from(sealed.iv, 'base64'),
            tag: Buffer.from(sealed.tag, 'base64'),
            ct: Buffer.from(sealed.ct, 'base64'),
          },
          aad(workspaceId, name),
        );
        return clear.toString('utf8');
      } catch {
        throw new Error(
          `${workspaceId} ${name}: the sealed secret was altered, or sealed for another`,
        );
      }
    },
  };
}

export type WorkspaceSecrets = ReturnType<typeof workspaceSecrets>;
