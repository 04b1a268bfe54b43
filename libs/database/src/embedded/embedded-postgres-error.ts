/**
 * Why the embedded PostgreSQL did not start, as one sentence with its remedy: it is what a newcomer
 * sees after `npm start`, the CLI or `npm test`, so it names the cause and what to do, never a stack.
 */
export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';

  constructor(
    /** What went wrong, in a few words (no trailing period). */
    readonly reason: string,
    /** What to do about it (no trailing period); the way around the embedded server is added. */
    readonly remedy: string,
  ) {
    super(startFailure(reason, remedy, 'DATABASE_URL'));
  }

  /** The same sentence where another variable replaces the embedded server (the tests: TEST_DATABASE_URL). */
  sentenceFor(variable: string): string {
    return startFailure(this.reason, this.remedy, variable);
  }
}

function startFailure(reason: string, remedy: string, variable: string): string {
  return oneLine(
    `The embedded PostgreSQL could not start: ${reason}; ${remedy}, ` +
      `or set ${variable} to use a PostgreSQL server of your own.`,
  );
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Any failure met while starting the server, as an EmbeddedPostgresError (kept as is when it is one). */
export function asEmbeddedPostgresError(error: unknown): EmbeddedPostgresError {
  if (error instanceof EmbeddedPostgresError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new EmbeddedPostgresError(reason, 'fix what it names');
}
