import { Client } from 'pg';
import { connectionStringAs } from './roles';

/** What pg connects with for a connection string (the client is made, never connected). */
function parsed(url: string) {
  const client = new Client({ connectionString: url });
  const { user, password, host, port, database } = client as unknown as Record<string, unknown>;
  return { user, password, host, port, database };
}

describe("a role's connection string on the owner's server", () => {
  it.each([
    {
      case: 'names the role and its password, the same server and database',
      owner: 'postgres://owner:secret@db.internal:6432/engram',
      password: 'p w/@',
      expected: { password: 'p w/@', host: 'db.internal', port: 6432, database: 'engram' },
    },
    {
      case: "keeps a Unix socket named by the owner's URL (a server on the same machine)",
      owner: 'postgres://postgres@localhost:5432/engram?host=/var/run/postgresql',
      password: 'x',
      expected: { password: 'x', host: '/var/run/postgresql', port: 5432, database: 'engram' },
    },
  ])('$case', ({ owner, password, expected }) => {
    expect(parsed(connectionStringAs(owner, 'engram_app', password))).toEqual({
      user: 'engram_app',
      ...expected,
    });
  });
});
