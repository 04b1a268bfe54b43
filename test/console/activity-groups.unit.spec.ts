import type { ActivityGroup } from '../../console/src/api/types';
import {
  appendPage,
  groupStatus,
  mergeFreshPage,
} from '../../console/src/pages/activity/activity-groups';

const group = (traceId: string, types: string[] = ['MessageRecorded']): ActivityGroup => ({
  traceId,
  title: traceId,
  channels: ['web'],
  firstAt: '2026-06-02T12:00:00.000Z',
  lastAt: '2026-06-02T12:00:00.000Z',
  events: types.map((type) => ({ type, at: '2026-06-02T12:00:00.000Z', summary: type })),
});

describe('the console’s activity feed', () => {
  it('puts new groups on top and refreshes the ones already shown in place', () => {
    const updated = group('b', ['ActionProposed', 'ActionConfirmed']);
    const merged = mergeFreshPage([group('b'), group('a')], [group('c'), updated]);
    expect(merged.groups.map((g) => g.traceId)).toEqual(['c', 'b', 'a']);
    expect(merged.groups[1]).toBe(updated);
    expect(merged).toMatchObject({ added: 1, restarted: false });
  });

  it('starts over when a fresh page shares nothing with what is shown (more arrived than a page)', () => {
    const merged = mergeFreshPage([group('a')], [group('c'), group('b')]);
    expect(merged.groups.map((g) => g.traceId)).toEqual(['c', 'b']);
    expect(merged.restarted).toBe(true);
  });

  it('appends an older page without repeating a group', () => {
    expect(
      appendPage([group('c'), group('b')], [group('b'), group('a')]).map((g) => g.traceId),
    ).toEqual(['c', 'b', 'a']);
  });

  it('gives a group the status of its latest action event', () => {
    expect(groupStatus(group('t', ['MessageRecorded', 'ActionProposed', 'ActionConfirmed']))).toBe(
      'confirmed',
    );
    expect(groupStatus(group('t', ['MessageRecorded']))).toBeNull();
  });
});
