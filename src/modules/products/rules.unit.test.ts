import { describe, expect, it } from 'vitest';
import { translateUniqueViolation } from './rules.ts';

/** A unique violation as the drivers raise it (drizzle wraps it: the fields sit on `cause`). */
const violation = (constraint: string, detail: string) =>
  Object.assign(new Error('duplicate key'), { cause: { code: '23505', constraint, detail } });

describe('translateUniqueViolation', () => {
  it('names the handle a write of many products raced for, from the index detail', () => {
    const err = translateUniqueViolation(
      violation('products_handle_live_idx', 'Key (handle)=(blue-shirt) already exists.'),
    ) as { code: string; message: string };
    expect(err).toMatchObject({
      code: 'product_handle_taken',
      message: 'Product with handle: blue-shirt, already exists.',
    });
  });

  it('prefers the handle the caller knows, and leaves other errors alone', () => {
    const known = translateUniqueViolation(violation('products_handle_live_idx', ''), 'mine') as { message: string };
    expect(known.message).toContain('mine');
    const other = new Error('boom');
    expect(translateUniqueViolation(other)).toBe(other);
    const unnamed = violation('products_handle_live_idx', 'no detail');
    expect(translateUniqueViolation(unnamed)).toBe(unnamed);
    expect((translateUniqueViolation(violation('product_variants_sku_live_idx', '')) as { code: string }).code).toBe(
      'variant_sku_duplicate',
    );
  });
});
