import fc from 'fast-check';
import { parseStreamName, userStream, userStreamPrefix, workspaceStream } from './streams';

const identifier = fc.stringMatching(/^[A-Za-z0-9._:-]{1,20}$/);

describe('stream names', () => {
  it('put the owner first, so one prefix finds all of a user’s streams', () => {
    expect(userStream('w1', 'u1', 'message', 'm1')).toBe('w1/u1/message/m1');
    expect(userStream('w1', 'u1', 'action', 'a1').startsWith(userStreamPrefix('w1', 'u1'))).toBe(
      true,
    );
    expect(userStream('w1', 'u10', 'action', 'a1').startsWith(userStreamPrefix('w1', 'u1'))).toBe(
      false,
    );
  });

  it('parse back to their owner, for users and workspaces', () => {
    fc.assert(
      fc.property(identifier, identifier, identifier, identifier, (ws, user, kind, id) => {
        expect(parseStreamName(userStream(ws, user, kind, id))).toEqual({
          workspaceId: ws,
          userId: user,
          kind,
          id,
        });
        expect(parseStreamName(workspaceStream(ws, kind, id))).toEqual({
          workspaceId: ws,
          userId: null,
          kind,
          id,
        });
      }),
    );
  });

  it('reject names that are not Engram stream names', () => {
    expect(parseStreamName('orders-1')).toBeUndefined();
    expect(parseStreamName('w 1/u1/k/i')).toBeUndefined();
    expect(parseStreamName('w1/u1/k')).toBeUndefined();
  });
});
