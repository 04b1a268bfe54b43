import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { EngramApi } from '../api/client';
import type { MemoryPolicy } from '../api/types';
import type { Session } from './session';

export type SignedIn = Readonly<{
  session: Session;
  api: EngramApi;
  /** The workspace's memory policy, for admins (users may not read it). */
  policy: MemoryPolicy | null;
  /** The policy as the API answered a change of it (the policy page). */
  setPolicy: (policy: MemoryPolicy) => void;
  /** The workspace policy's zone when the caller may read it (admins), else the browser's. */
  timeZone: string;
  isAdmin: boolean;
}>;

export const SignedInContext = createContext<SignedIn | null>(null);

/** For the pages behind sign-in (the app renders them only with a session). */
export function useSignedIn(): SignedIn {
  const value = useContext(SignedInContext);
  if (!value) throw new Error('useSignedIn outside a signed-in page');
  return value;
}
