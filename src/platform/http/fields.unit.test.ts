import { describe, expect, it } from 'vitest';
import { parseFields } from './fields.ts';

describe('parseFields', () => {
  it('reads the storefront expressions: relations with *, +, dotted paths; ignores - and blanks', () => {
    const f = parseFields(
      '*variants.calculated_price,+variants.inventory_quantity,*images,*categories, *collection,*tags,*type,-metadata,,title',
    );
    expect([...f.relations].sort()).toEqual(['categories', 'collection', 'images', 'tags', 'type', 'variants']);
    expect(f.paths.has('variants.calculated_price')).toBe(true);
    expect(f.paths.has('metadata')).toBe(false);
    expect(f.relations.has('title')).toBe(false);
    expect(parseFields('*parent_category.parent_category').paths.has('parent_category.parent_category')).toBe(true);
    expect(parseFields('').relations.size).toBe(0);
    expect(parseFields(undefined).relations.size).toBe(0);
    expect(parseFields('unknown_relation.*,+whatever').relations).toEqual(new Set(['unknown_relation']));
  });

  it('rejects malformed expressions with a 400', () => {
    for (const bad of ['a b', 'a;drop', '*', 'a..b', '**a', '1abc', 'a.']) {
      expect(() => parseFields(bad), bad).toThrow(expect.objectContaining({ type: 'invalid_data' }));
    }
  });
});
