import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../../src/core/http/rate-limit.js';

describe('parseRateLimit', () => {
  it('reads limit, remaining and reset (UTC epoch seconds) from the X-RateLimit-* headers', () => {
    const headers = new Headers({ 'X-RateLimit-Limit': '50', 'X-RateLimit-Remaining': '7', 'X-RateLimit-Reset': '1700000010' });
    expect(parseRateLimit(headers)).toEqual({ limit: 50, remaining: 7, reset: new Date(1_700_000_010_000) });
  });

  it('accepts a remaining count of zero', () => {
    const headers = new Headers({ 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000010' });
    expect(parseRateLimit(headers)?.remaining).toBe(0);
  });

  it.each(['0x10', '1e1', '-5', '7.5', '12abc', ' '])('reads no count from %j: the platform sends whole numbers in digits', (value) => {
    const headers = new Headers({ 'x-ratelimit-limit': value, 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000010' });
    expect(parseRateLimit(headers)).toBeUndefined();
  });

  it('answers undefined when there are no rate-limit headers', () => {
    expect(parseRateLimit(new Headers())).toBeUndefined();
  });

  it.each(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])(
    'answers undefined rather than half a value when %s is missing',
    (missing) => {
      const headers = new Headers({ 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '1700000010' });
      headers.delete(missing);
      expect(parseRateLimit(headers)).toBeUndefined();
    },
  );

  it.each(['', '   ', 'soon', 'NaN', 'Infinity', '1e300'])('answers undefined when a header holds %j', (value) => {
    const headers = new Headers({ 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': value });
    expect(parseRateLimit(headers)).toBeUndefined();
  });
});
