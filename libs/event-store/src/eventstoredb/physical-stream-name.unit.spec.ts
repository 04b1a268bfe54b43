import fc from 'fast-check';
import {
  toLogicalStreamName,
  toPhysicalStreamName,
  toPhysicalStreamPrefixes,
  userCategory,
  userCategoryStream,
  workspaceCategory,
} from './physical-stream-name';

/** What `$by_category` (default "first -" rule) takes as the category of a stream. */
function categoryOf(physical: string): string {
  const dash = physical.indexOf('-');
  return dash < 0 ? physical : physical.slice(0, dash);
}

const identifier = fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/);
const segment = fc
  .string({ minLength: 1, maxLength: 40, unit: 'binary' })
  .filter((s) => !s.includes('/'));

describe('physical stream names', () => {
  it('maps a user stream under a per-user category', () => {
    expect(toPhysicalStreamName('ws-1/user-2/memory/abc-def')).toBe('u/ws~1/user~2-memory/abc-def');
    expect(categoryOf('u/ws~1/user~2-memory/abc-def')).toBe(userCategory('ws-1', 'user-2'));
    expect(userCategoryStream('ws-1', 'user-2')).toBe('$ce-u/ws~1/user~2');
  });

  it('maps a workspace stream under a per-workspace category', () => {
    expect(toPhysicalStreamName('ws-1/~/settings/main')).toBe('w/ws~1-settings/main');
    expect(categoryOf('w/ws~1-settings/main')).toBe(workspaceCategory('ws-1'));
  });

  it('prefixes any other name with x-', () => {
    expect(toPhysicalStreamName('plain')).toBe('x-plain');
    expect(toPhysicalStreamName('ws/user/kind')).toBe('x-ws/user/kind');
    expect(toPhysicalStreamName('bad ws/user/kind/id')).toBe('x-bad ws/user/kind/id');
    expect(toPhysicalStreamName('ws/user//id')).toBe('x-ws/user//id');
    expect(toPhysicalStreamName('')).toBe('x-');
  });

  it('inverts the examples', () => {
    for (const logical of [
      'ws-1/user-2/memory/abc-def',
      'ws-1/~/settings/main',
      'plain',
      'a/b/c',
      '',
    ]) {
      expect(toLogicalStreamName(toPhysicalStreamName(logical))).toBe(logical);
    }
  });

  it('rejects names it never produces', () => {
    for (const physical of [
      '$ce-u/ws/user',
      '$all',
      'orders-1',
      'u/ws/user',
      'u/ws-kind/id',
      'u/a/b/c-kind/id',
      'w/a/b-kind/id',
      'u/ws/us$er-kind/id',
      'x-a/b/c/d',
      'x-a/~/c/d',
      'u/ws/user-/id',
    ]) {
      expect(toLogicalStreamName(physical)).toBeUndefined();
    }
  });

  it('round-trips any user or workspace stream built from valid identifiers', () => {
    fc.assert(
      fc.property(
        identifier,
        fc.option(identifier, { nil: '~' }),
        segment,
        segment,
        (workspaceId, user, kind, id) => {
          const logical = `${workspaceId}/${user}/${kind}/${id}`;
          const physical = toPhysicalStreamName(logical);
          expect(physical.startsWith(user === '~' ? 'w/' : 'u/')).toBe(true);
          expect(toLogicalStreamName(physical)).toBe(logical);
        },
      ),
    );
  });

  it('round-trips any string at all', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (logical) => {
        expect(toLogicalStreamName(toPhysicalStreamName(logical))).toBe(logical);
      }),
    );
  });

  it('is injective: a physical name maps back only to the name that produced it', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc
            .tuple(fc.constantFrom('u/', 'w/', 'x-'), fc.string({ unit: 'binary' }))
            .map(([p, s]) => p + s),
        ),
        (physical) => {
          const logical = toLogicalStreamName(physical);
          if (logical !== undefined) expect(toPhysicalStreamName(logical)).toBe(physical);
        },
      ),
    );
  });

  it('gives every user their own category, shared by all their streams', () => {
    fc.assert(
      fc.property(
        identifier,
        identifier,
        identifier,
        identifier,
        segment,
        segment,
        (ws1, u1, ws2, u2, kind, id) => {
          const first = categoryOf(toPhysicalStreamName(`${ws1}/${u1}/${kind}/${id}`));
          const second = categoryOf(toPhysicalStreamName(`${ws2}/${u2}/${kind}/${id}`));
          expect(first).toBe(userCategory(ws1, u1));
          expect(first === second).toBe(ws1 === ws2 && u1 === u2);
        },
      ),
    );
  });

  it('maps a logical prefix to physical prefixes that every name it starts keeps (server filters)', () => {
    const name = fc.oneof(
      fc
        .tuple(identifier, fc.option(identifier, { nil: '~' }), segment, segment)
        .map(([ws, user, kind, id]) => `${ws}/${user}/${kind}/${id}`),
      fc.string({ unit: 'binary' }),
    );
    fc.assert(
      fc.property(name, fc.nat(), (logical, cut) => {
        const prefix = logical.slice(0, cut % (logical.length + 1));
        const physical = toPhysicalStreamName(logical);
        expect(toPhysicalStreamPrefixes(prefix).some((p) => physical.startsWith(p))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the physical prefixes narrow: a user prefix names that user only', () => {
    expect(toPhysicalStreamPrefixes('ws-1/user-2/')).toEqual(['u/ws~1/user~2-', 'x-ws-1/user-2/']);
    expect(toPhysicalStreamPrefixes('ws-1/~/')).toEqual(['w/ws~1-', 'x-ws-1/~/']);
    expect(toPhysicalStreamPrefixes('ws-1/')).toEqual(['u/ws~1/', 'w/ws~1-', 'x-ws-1/']);
  });
});
