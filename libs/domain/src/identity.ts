export const ROLES = ['user', 'admin', 'agent', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

/** Who a read-model query runs for; Postgres policies see it through transaction-local settings. */
export type CallerIdentity = Readonly<{
  workspaceId: string;
  userId: string;
  roles: readonly Role[];
}>;
