import { describe, expect, it } from 'vitest';
import { StoreCache } from './store-cache.ts';

describe('StoreCache', () => {
  it('keeps an answer only when nothing changed while it was read', () => {
    const cache = new StoreCache();
    const before = cache.version;
    cache.clear(); // a change committed while the read ran
    cache.set('a', Buffer.from('stale'), before);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', Buffer.from('fresh'), cache.version);
    expect(cache.get('a')?.toString()).toBe('fresh');
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });

  it('starts over when full, and never keeps one answer bigger than a quarter of it', () => {
    const cache = new StoreCache(100);
    cache.set('big', Buffer.from('x'.repeat(26)), cache.version);
    expect(cache.get('big')).toBeUndefined();
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, Buffer.from('x'.repeat(25)), cache.version);
    expect(['a', 'b', 'c', 'd'].map((k) => cache.get(k) !== undefined)).toEqual([true, true, true, true]);
    cache.set('e', Buffer.from('x'.repeat(25)), cache.version);
    expect(['a', 'e'].map((k) => cache.get(k) !== undefined)).toEqual([false, true]);
  });
});
