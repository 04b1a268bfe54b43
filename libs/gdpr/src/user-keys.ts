/** The per-user data keys, as erasure needs them (implemented by libs/crypto's key store). */
export interface UserKeys {
  destroyKey(workspaceId: string, userId: string): Promise<void>;
}

export const USER_KEYS = Symbol('UserKeys');
