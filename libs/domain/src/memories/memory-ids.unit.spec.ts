import { createHmac } from 'node:crypto';
import { deterministicId } from '../deterministic-id';
import { memoryIdFor, type OwnerDigest } from './memory-ids';
import { normalizeContent } from './normalize-content';

const hmacUnder =
  (key: string): OwnerDigest =>
  (text) =>
    createHmac('sha256', key).update(text).digest('hex');

describe('memoryIdFor', () => {
  const alice = hmacUnder('alice-key');

  it('gives the same id to the same normalized content of the same owner and generation', () => {
    expect(memoryIdFor(alice, 'w1', 'alice', 0, 'Habite à Lyon.')).toBe(
      memoryIdFor(alice, 'w1', 'alice', 0, 'habite a lyon'),
    );
    expect(memoryIdFor(alice, 'w1', 'alice', 1, 'Habite à Lyon.')).not.toBe(
      memoryIdFor(alice, 'w1', 'alice', 0, 'Habite à Lyon.'),
    );
  });

  it('cannot be recomputed from a guessed content without the owner’s key', () => {
    const id = memoryIdFor(alice, 'w1', 'alice', 0, 'Habite à Lyon.');
    // The unkeyed hash a guesser could compute, and the same guess under any other key.
    expect(id).not.toBe(
      deterministicId('memory', 'w1', 'alice', 0, normalizeContent('Habite à Lyon.')),
    );
    expect(id).not.toBe(memoryIdFor(hmacUnder('a guess'), 'w1', 'alice', 0, 'Habite à Lyon.'));
  });

  it('is a UUID, as every memory id the API accepts', () => {
    expect(memoryIdFor(alice, 'w1', 'alice', 0, 'x')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
