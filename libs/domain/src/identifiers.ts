/** Public identifiers (workspace, user, session, agent, trace): 1-128 chars of [A-Za-z0-9._:-]. */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function isIdentifier(value: unknown): value is string {
  return typeof value === 'string' && IDENTIFIER_PATTERN.test(value);
}
