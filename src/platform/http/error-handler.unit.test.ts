import { describe, expect, it } from 'vitest';
import { toAppError } from './error-handler.ts';

/** A driver error as drizzle throws it: the PostgreSQL fields ride on `cause`. */
const dbError = (code: string) =>
  Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('driver'), { code }) });

describe('toAppError: what a failed statement becomes for the client', () => {
  it('a deadlock or serialization failure is a 409 to send again, not a 500', () => {
    for (const code of ['40P01', '40001']) {
      const e = toAppError(dbError(code));
      expect(e?.status, code).toBe(409);
      expect(e?.toJSON()).toMatchObject({ type: 'conflict', message: expect.stringContaining('send it again') });
    }
  });

  it('a unique violation is 422, a server going away 503 with Retry-After, anything else unknown', () => {
    expect(toAppError(dbError('23505'))?.status).toBe(422);
    const gone = toAppError(dbError('57P01'));
    expect(gone?.status).toBe(503);
    expect(gone?.headers).toEqual({ 'retry-after': '2' });
    expect(toAppError(dbError('42P01'))).toBeNull();
  });

  it('a value PostgreSQL cannot read or hold is a 400, whatever route let it through', () => {
    for (const code of ['22P02', '22003', '22001', '22007', '22008', '22021', '54000']) {
      expect(toAppError(dbError(code))?.toJSON(), code).toMatchObject({ type: 'invalid_data' });
    }
  });
});
