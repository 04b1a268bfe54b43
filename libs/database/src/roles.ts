/** Login role of the API: owns nothing, cannot bypass row-level security. */
export const APP_ROLE = 'engram_app';
/** Login role of the projection workers: writes every user's read-model rows, still under RLS policies. */
export const PROJECTOR_ROLE = 'engram_projector';

export type RolePasswords = Readonly<{ app?: string | undefined; projector?: string | undefined }>;

/**
 * Creates the two login roles if missing. Roles are cluster-wide, so several databases (tests) share
 * them; a concurrent creation by another process is not an error.
 */
export type Query = (sql: string, params?: unknown[]) => Promise<unknown[]>;

export async function ensureRoles(query: Query, passwords: RolePasswords): Promise<void> {
  for (const [role, password] of [
    [APP_ROLE, passwords.app],
    [PROJECTOR_ROLE, passwords.projector],
  ] as const) {
    const exists = await query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (exists.length === 0) {
      try {
        await query(`CREATE ROLE ${role} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE`);
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    }
    if (password !== undefined) {
      const [literal] = (await query('SELECT quote_literal($1) AS quoted', [password])) as {
        quoted: string;
      }[];
      await query(`ALTER ROLE ${role} PASSWORD ${literal!.quoted}`);
    }
  }
}

function isAlreadyExists(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '42710' || code === '23505';
}

/** The connection string of a login role on the same server and database as the owner's. */
export function connectionStringAs(ownerUrl: string, role: string, password?: string): string {
  const url = new URL(ownerUrl);
  url.username = role;
  url.password = password ?? '';
  return url.toString();
}
