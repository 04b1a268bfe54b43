import { CommittedCheckpoints } from './committed-checkpoints';

type Row = { workspaceId: string; userId: string; sessionId: string; messageCount: number };

/** A runner's cache as the table of rows it holds, looked up by session. */
function cache(rows: Row[]) {
  return (key: Readonly<Record<string, unknown>>) =>
    rows.find((row) => row.sessionId === key.sessionId);
}

describe('rows of the runners of this process', () => {
  const row: Row = { workspaceId: 'w', userId: 'u', sessionId: 's', messageCount: 3 };
  const key = { workspaceId: 'w', userId: 'u', sessionId: 's' };

  it('gives a cached row once its runner has committed the position asked, not before', () => {
    const committed = new CommittedCheckpoints();
    committed.started('sessions', 4n, cache([row]));
    expect(committed.rowAt<Row>('sessions', key, 5n)).toBeUndefined();
    expect(committed.rowAt<Row>('sessions', key, 4n)).toBe(row);
    committed.committed('sessions', 9n, true);
    expect(committed.rowAt<Row>('sessions', key, 9n)).toBe(row);
  });

  it('gives nothing for a row not cached, a runner without a cache, or one run elsewhere', () => {
    const committed = new CommittedCheckpoints();
    committed.started('sessions', 4n, cache([row]));
    committed.started('memories', 4n);
    expect(committed.rowAt<Row>('sessions', { ...key, sessionId: 'other' }, 1n)).toBeUndefined();
    expect(committed.rowAt<Row>('memories', key, 1n)).toBeUndefined();
    expect(committed.rowAt<Row>('identity_cards', key, 1n)).toBeUndefined();
  });

  it('gives nothing once the runner stopped, even if it starts again without its cache', () => {
    const committed = new CommittedCheckpoints();
    committed.started('sessions', 4n, cache([row]));
    committed.stopped('sessions');
    expect(committed.rowAt<Row>('sessions', key, 1n)).toBeUndefined();
    committed.started('sessions', 4n);
    expect(committed.rowAt<Row>('sessions', key, 1n)).toBeUndefined();
  });
});
