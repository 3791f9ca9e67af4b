import { describe, expect, it } from 'vitest';
import { treeOrder, type Category } from './category-tree.ts';

const cat = (id: string, parent: string | null): Category => ({
  id,
  name: id,
  parent_category_id: parent,
  is_active: true,
  is_internal: false,
});

describe('categories in tree order for the product editor', () => {
  it('puts each child under its parent with its depth, whatever order the API lists them in', () => {
    const list = [cat('shirts', 'clothing'), cat('toys', null), cat('linen', 'shirts'), cat('clothing', null)];
    expect(treeOrder(list).map(({ category, depth }) => [category.id, depth])).toEqual([
      ['toys', 0],
      ['clothing', 0],
      ['shirts', 1],
      ['linen', 2],
    ]);
  });

  it('shows a category whose parent is not in the list as a root instead of dropping it', () => {
    expect(treeOrder([cat('orphan', 'gone')]).map(({ category, depth }) => [category.id, depth])).toEqual([
      ['orphan', 0],
    ]);
  });
});
