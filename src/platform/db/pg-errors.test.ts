import { describe, expect, it } from 'vitest';
import { isUniqueViolation, pgCode, pgError, withTxRetry } from './pg-errors.ts';

const driverError = (fields: Record<string, string>) => Object.assign(new Error('driver'), fields);
/** What drizzle throws: its own error with the driver's in `cause`. */
const wrapped = (fields: Record<string, string>) =>
  Object.assign(new Error('Failed query'), { cause: driverError(fields) });

describe('pgError', () => {
  it('reads the driver error inside drizzle’s wrapper, or the error itself', () => {
    const fields = {
      code: '23505',
      constraint: 'products_handle_live_idx',
      detail: 'Key (iso_2)=(de) already exists.',
    };
    expect(pgError(wrapped(fields))).toEqual(fields);
    expect(pgError(driverError(fields))).toEqual(fields);
    expect(pgCode(new Error('plain'))).toBeUndefined();
    expect(pgCode(null)).toBeUndefined();
  });

  it('names a unique violation and nothing else', () => {
    expect(isUniqueViolation(wrapped({ code: '23505' }))).toBe(true);
    expect(isUniqueViolation(wrapped({ code: '23503' }))).toBe(false);
    expect(isUniqueViolation(new Error('23505'))).toBe(false);
  });
});

describe('withTxRetry', () => {
  it('runs again after a serialization failure or a deadlock, up to the attempts given', async () => {
    let runs = 0;
    const flaky = async () => {
      runs++;
      if (runs < 3) throw wrapped({ code: runs === 1 ? '40001' : '40P01' });
      return 'done';
    };
    expect(await withTxRetry(flaky)).toBe('done');
    expect(runs).toBe(3);

    runs = 0;
    await expect(withTxRetry(flaky, 2)).rejects.toMatchObject({ cause: { code: '40P01' } });
    expect(runs).toBe(2);
  });

  it('does not retry other errors', async () => {
    let runs = 0;
    const failing = async () => {
      runs++;
      throw wrapped({ code: '23505' });
    };
    await expect(withTxRetry(failing)).rejects.toMatchObject({ cause: { code: '23505' } });
    expect(runs).toBe(1);
  });
});
