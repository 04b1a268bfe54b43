import { LoggedProblems, loggedSince } from './logged-problems';

const line = (level: string, msg: string) =>
  JSON.stringify({ level, time: '2026-12-07T13:02:56.999Z', context: 'Worker', msg }) + '\n';

describe('what a process logged at warn or above', () => {
  it('counts each message with its numbers as #, from lines split across chunks, leaving info out', () => {
    const problems = new LoggedProblems();
    const retry = line(
      'warn',
      'reactor:rolling_summary#2/4: projections sessions#2/4 did not reach position 1004512; retrying',
    );
    problems.write(line('info', 'projection:sessions#1/4: lease acquired') + retry.slice(0, 40));
    problems.write(
      retry.slice(40) +
        line(
          'warn',
          'reactor:rolling_summary#2/4: projections sessions#2/4 did not reach position 1009999; retrying',
        ),
    );
    problems.write(line('error', 'the database is gone'));
    expect(Object.fromEntries(problems.snapshot())).toEqual({
      'warn Worker: reactor:rolling_summary##/#: projections sessions##/# did not reach position #; retrying': 2,
      'error Worker: the database is gone': 1,
    });
  });

  it('keeps a line that is not JSON as it is, and bounds the distinct messages kept', () => {
    const problems = new LoggedProblems();
    problems.write('{"level":"warn" but cut\n');
    for (let i = 0; i < 60; i += 1) problems.write(line('warn', `message ${'x'.repeat(i)}`));
    const counts = problems.snapshot();
    expect(counts.get('{"level":"warn" but cut')).toBe(1);
    expect(counts.size).toBe(51);
    expect(counts.get('(other messages)')).toBe(11);
  });

  it('says what was logged between two snapshots, the processes’ messages added up', () => {
    const a = new LoggedProblems();
    const b = new LoggedProblems();
    a.write(line('warn', 'lease lost'));
    const before = [a.snapshot(), b.snapshot()];
    a.write(line('warn', 'lease lost') + line('warn', 'retrying'));
    b.write(line('warn', 'retrying'));
    expect(loggedSince(before, [a.snapshot(), b.snapshot()])).toEqual({
      'warn Worker: lease lost': 1,
      'warn Worker: retrying': 2,
    });
  });
});
