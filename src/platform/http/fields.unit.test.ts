import { describe, expect, it } from 'vitest';
import { parseFields, project, shape } from './fields.ts';

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

  it("tells Medusa's two modes apart: only prefixed items add, one plain name replaces the selection", () => {
    expect(parseFields('*items, *region, +items.total').selection).toBeNull();
    expect(parseFields(' metadata,*variants').selection).toBeNull(); // a space is an unencoded +
    expect(parseFields('variants.*').selection).toBeNull();
    expect(parseFields('-metadata,+title').selection).toEqual({ kind: 'remove', paths: ['metadata'] });
    const only = parseFields('handle');
    expect(only.selection?.kind).toBe('only');
    expect(only.signature).toBe(parseFields('handle,').signature);
    expect(only.signature).not.toBe(parseFields('title').signature);
  });

  it('projects: ids at every level, stars whole, arrays item by item; shape removes paths', () => {
    const value = {
      id: 'p',
      title: 'T',
      handle: 'h',
      variants: [{ id: 'v', sku: 's', prices: [{ id: 'x', amount: 1 }] }],
    };
    const tree = (e: string) => {
      const s = parseFields(e).selection;
      if (s?.kind !== 'only') throw new Error(e);
      return s.tree;
    };
    expect(project(value, tree('handle'))).toEqual({ id: 'p', handle: 'h' });
    expect(project(value, tree('variants.sku'))).toEqual({ id: 'p', variants: [{ id: 'v', sku: 's' }] });
    expect(project(value, tree('title,*variants'))).toEqual({ id: 'p', title: 'T', variants: value.variants });
    expect(project(value, tree('missing'))).toEqual({ id: 'p' });
    expect(shape(value, parseFields('-variants.prices,-title').selection)).toEqual({
      id: 'p',
      handle: 'h',
      variants: [{ id: 'v', sku: 's' }],
    });
  });
});
