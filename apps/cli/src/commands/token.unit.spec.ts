import { tokenLifetime } from './token';

describe('npm run token: the lifetime of the token', () => {
  it('is 12 h by default, shortened to ENGRAM_JWT_MAX_AGE when that is lower', () => {
    expect(tokenLifetime(undefined, 86_400)).toBe(12 * 3600);
    expect(tokenLifetime(undefined, 3600)).toBe(3600);
  });

  it('takes --ttl in seconds or as a duration, within the cap', () => {
    expect(tokenLifetime('90', 86_400)).toBe(90);
    expect(tokenLifetime('30m', 86_400)).toBe(1800);
    expect(tokenLifetime('24h', 86_400)).toBe(86_400);
  });

  it('refuses a --ttl the API would refuse, or that is no duration', () => {
    expect(() => tokenLifetime('2d', 86_400)).toThrow(
      '--ttl 2d is longer than ENGRAM_JWT_MAX_AGE (1d)',
    );
    expect(() => tokenLifetime('soon', 86_400)).toThrow('--ttl must be a duration');
    expect(() => tokenLifetime('0', 86_400)).toThrow('--ttl must be a duration');
  });
});
