import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** AES-256-GCM with a 96-bit random IV and a full 128-bit tag (shorter tags are refused on open). */
export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

export type Sealed = Readonly<{ iv: Buffer; tag: Buffer; ct: Buffer }>;

export function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ct };
}

/** Throws when the key, the AAD or any byte of iv / tag / ciphertext is not what was sealed. */
export function decrypt(key: Buffer, sealed: Sealed, aad: Buffer): Buffer {
  if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES) {
    throw new Error('malformed iv or tag');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.ct), decipher.final()]);
}

function wrapAad(workspaceId: string, userId: string): Buffer {
  // Binds a wrapped key to its owner: a wrapped key copied to another row does not unwrap.
  return Buffer.from(`engram/data-key/v1\0${workspaceId}\0${userId}`, 'utf8');
}

/** A data key encrypted by the master key, as stored in data_keys.wrapped_key: iv ‖ tag ‖ ct. */
export function wrapKey(master: Buffer, dataKey: Buffer, workspaceId: string, userId: string) {
  const { iv, tag, ct } = encrypt(master, dataKey, wrapAad(workspaceId, userId));
  return Buffer.concat([iv, tag, ct]);
}

export function unwrapKey(
  master: Buffer,
  wrapped: Buffer,
  workspaceId: string,
  userId: string,
): Buffer {
  const sealed = {
    iv: wrapped.subarray(0, IV_BYTES),
    tag: wrapped.subarray(IV_BYTES, IV_BYTES + TAG_BYTES),
    ct: wrapped.subarray(IV_BYTES + TAG_BYTES),
  };
  const key = decrypt(master, sealed, wrapAad(workspaceId, userId));
  if (key.length !== KEY_BYTES) throw new Error('unwrapped key has the wrong length');
  return key;
}

/**
 * Which master key wrapped a data key (data_keys.key_version): a 31-bit fingerprint of the master
 * key (HMAC, so it reveals nothing of it). Lets a rotation skip keys it already re-wrapped and name a
 * key wrapped by an unknown master key instead of failing with a bare authentication error.
 */
export function masterKeyVersion(master: Buffer): number {
  return (
    createHmac('sha256', master).update('engram/master-key-version').digest().readUInt32BE(0) &
    0x7fffffff
  );
}

export function assertMasterKey(master: Buffer): void {
  if (master.length !== KEY_BYTES) {
    throw new RangeError(`a master key is ${KEY_BYTES} bytes, got ${master.length}`);
  }
}
