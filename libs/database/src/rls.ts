import { APP_ROLE, PROJECTOR_ROLE } from './roles';

/**
 * Statements that put a read-model table under row-level security: the API role sees only the rows of
 * the caller (workspace and user from transaction-local settings), even with a WHERE clause asking for
 * others; the projector role writes all rows. FORCE applies the policies to the table owner too.
 */
export function userScopedTableStatements(table: string): string[] {
  return [
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
    `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`,
    `CREATE POLICY ${table}_own_rows ON ${table} FOR SELECT TO ${APP_ROLE}
       USING (workspace_id = current_setting('engram.workspace_id', true)
              AND user_id = current_setting('engram.user_id', true))`,
    `CREATE POLICY ${table}_projector ON ${table} FOR ALL TO ${PROJECTOR_ROLE}
       USING (true) WITH CHECK (true)`,
    ...grants(table),
  ];
}

/** Workspace settings (policy, agents): every member of the workspace may read them, no one else. */
export function workspaceScopedTableStatements(table: string): string[] {
  return [
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
    `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`,
    `CREATE POLICY ${table}_own_workspace ON ${table} FOR SELECT TO ${APP_ROLE}
       USING (workspace_id = current_setting('engram.workspace_id', true))`,
    `CREATE POLICY ${table}_projector ON ${table} FOR ALL TO ${PROJECTOR_ROLE}
       USING (true) WITH CHECK (true)`,
    ...grants(table),
  ];
}

function grants(table: string): string[] {
  return [
    `GRANT SELECT ON ${table} TO ${APP_ROLE}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ${table} TO ${PROJECTOR_ROLE}`,
  ];
}
