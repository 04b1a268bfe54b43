import type { Role } from '@engram/domain';

/** The fixed demo workspace of the development token shortcut. */
export const DEMO_WORKSPACE = 'demo';

export const DEMO_USERS: readonly Readonly<{ userId: string; roles: readonly Role[] }>[] = [
  { userId: 'alice', roles: ['user'] },
  { userId: 'bob', roles: ['user'] },
  { userId: 'admin', roles: ['user', 'admin'] },
];
