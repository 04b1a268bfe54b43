import { StreamDeletedError } from '@engram/event-store';
import { eachApart } from './each-apart';
import { RetryLaterError } from './runner/reactor';

describe('a scheduled pass over a work list', () => {
  it('does every other item when one fails for a reason of its own, then reports the failure', async () => {
    const done: string[] = [];
    const pass = eachApart(['alice', 'mallory', 'bob'], (user) => {
      if (user === 'mallory') return Promise.reject(new Error('value out of range'));
      done.push(user);
      return Promise.resolve();
    });
    await expect(pass).rejects.toThrow(
      '1 of 3 items failed (the others were done): value out of range',
    );
    expect(done).toEqual(['alice', 'bob']);
  });

  it('ends the pass at a transient failure: the others would fail the same way', async () => {
    const done: string[] = [];
    const lost = Object.assign(new Error('connection lost'), { code: '08006' });
    for (const failure of [lost, new RetryLaterError('LLM down')]) {
      done.length = 0;
      const pass = eachApart(['alice', 'mallory', 'bob'], (user) => {
        if (user === 'mallory') return Promise.reject(failure);
        done.push(user);
        return Promise.resolve();
      });
      await expect(pass).rejects.toBe(failure);
      expect(done).toEqual(['alice']);
    }
  });

  it('counts an item whose owner was erased meanwhile (its write refused as deleted) as done', async () => {
    const done: string[] = [];
    await eachApart(['alice', 'una', 'bob'], (user) => {
      if (user === 'una')
        return Promise.reject(new StreamDeletedError('w/una/identity-card/current'));
      done.push(user);
      return Promise.resolve();
    });
    expect(done).toEqual(['alice', 'bob']);
  });
});
