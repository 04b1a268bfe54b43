import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { abortedOrAfter } from './aborted-or-after';

// A full garbage collection on demand (what `--expose-gc` gives), to collect what only weak
// references hold.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

describe('abortedOrAfter', () => {
  it('aborts once its time has passed, a garbage collection meanwhile', async () => {
    const waited = abortedOrAfter(new AbortController().signal, 30);
    // In a later turn: what the creating turn's stack holds is not collected.
    await sleep(5);
    collect();
    await sleep(150);
    expect(waited.aborted).toBe(true);
    expect((waited.reason as DOMException).name).toBe('TimeoutError');
  });

  it('aborts at once with the signal it follows', () => {
    const stop = new AbortController();
    const waited = abortedOrAfter(stop.signal, 60_000);
    expect(waited.aborted).toBe(false);
    stop.abort();
    expect(waited.aborted).toBe(true);
  });
});
