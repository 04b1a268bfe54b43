import fc from 'fast-check';
import { Pool } from 'pg';
import { serverUrl } from '../../../../test/support/test-database';
import { queryAs, type SqlValue } from './query-as';

const caller = { workspaceId: "w'1", userId: 'u\\1', roles: ['agent'] as const };

/**
 * queryAs inlines its parameters as literals (the simple protocol takes none): whatever a caller
 * sends must come back from PostgreSQL as the very value, never as SQL. Generated strings lean on
 * what breaks quoting: quotes, backslashes, dollar signs and placeholders, comments, semicolons.
 */
describe('inlineParameters: every value reaches PostgreSQL as the value itself', () => {
  let pool: Pool;

  beforeAll(() => {
    pool = new Pool({ connectionString: serverUrl(), max: 1 });
  });

  afterAll(async () => {
    await pool.end();
  });

  const hostile = fc.oneof(
    fc.string({ unit: fc.constantFrom("'", '\\', '$', '1', '2', '-', ';', '/*', 'E', '"', ' ') }),
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }).map((text) => text.replace(/\0/g, '')),
  );

  it('strings, numbers, booleans and null round-trip, in any position', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostile,
        // -0 is written 0: the same number for every read here.
        fc
          .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
          .filter((value) => !Object.is(value, -0)),
        fc.boolean(),
        hostile,
        async (first, number, flag, second) => {
          const params: SqlValue[] = [first, number, flag, null, second];
          const [row] = await queryAs<{ a: string; b: number; c: boolean; d: null; e: string }>(
            pool,
            caller,
            'SELECT $1::text AS a, $2::float8 AS b, $3::boolean AS c, $4::text AS d, $5::text AS e',
            params,
          );
          expect(row).toEqual({ a: first, b: number, c: flag, d: null, e: second });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a negative number cannot turn the rest of the statement into a comment', async () => {
    const [row] = await queryAs<{ value: number }>(pool, caller, 'SELECT 1-$1 AS value', [-1]);
    expect(row).toEqual({ value: 2 });
  });

  it('refuses a NUL character rather than cut the statement', async () => {
    await expect(queryAs(pool, caller, 'SELECT $1::text', ['a\0b'])).rejects.toThrow(/NUL/);
  });
});
