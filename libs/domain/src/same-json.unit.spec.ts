import { sameJson } from './same-json';

describe('sameJson', () => {
  it('ignores the order of object keys and keys holding undefined, at any depth', () => {
    expect(sameJson({ a: 1, b: { c: [1, { d: 'x' }] } }, { b: { c: [1, { d: 'x' }] }, a: 1 })).toBe(
      true,
    );
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  });

  it('tells apart values, types, array orders and missing keys', () => {
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameJson({ 0: 'x' }, ['x'])).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
