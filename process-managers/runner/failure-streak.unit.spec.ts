import { FailureStreak } from './failure-streak';

describe('a partition’s streak of transient failures', () => {
  it('doubles the wait with each failure of the same event, up to the bound', () => {
    const streak = new FailureStreak(500, 30_000);
    const waits = Array.from({ length: 8 }, () => streak.failed(42n));
    expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it('goes on while the partition has not passed the event that failed', () => {
    const streak = new FailureStreak(500, 30_000);
    streak.failed(42n);
    streak.failed(42n);
    streak.passed(41n); // the events before it were done again: the failed one was not
    expect(streak.failed(42n)).toBe(2_000);
  });

  it('ends once the event that failed is passed: a later failure waits the shortest again', () => {
    const streak = new FailureStreak(500, 30_000);
    for (let i = 0; i < 7; i += 1) streak.failed(42n);
    streak.passed(42n);
    expect(streak.length).toBe(0);
    expect(streak.failed(1_000n)).toBe(500);
  });

  it('ends a failure outside any reaction (the database down) at the next progress', () => {
    const streak = new FailureStreak(500, 30_000);
    streak.failed();
    streak.failed();
    streak.passed(1n);
    expect(streak.failed(7n)).toBe(500);
  });

  it('takes the last failure’s event: another event failing moves what must be passed', () => {
    const streak = new FailureStreak(10, 1_000);
    streak.failed(5n);
    streak.failed(9n);
    streak.passed(5n);
    expect(streak.failed(9n)).toBe(40);
  });
});
