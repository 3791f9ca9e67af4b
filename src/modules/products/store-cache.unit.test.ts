import { describe, expect, it, vi } from 'vitest';
import { StoreCache } from './store-cache.ts';

describe('StoreCache', () => {
  it('keeps an answer only when nothing changed while it was read', () => {
    const cache = new StoreCache();
    const before = cache.version;
    cache.clear(); // a change committed while the read ran
    cache.set('a', Buffer.from('stale'), before);
    expect(cache.get('a', cache.version)).toBeUndefined();
    cache.set('a', Buffer.from('fresh'), cache.version);
    expect(cache.get('a', cache.version)?.toString()).toBe('fresh');
    cache.clear();
    expect(cache.get('a', cache.version)).toBeUndefined();
  });

  it('when full, lets the least recently used answers go, one at a time', () => {
    const cache = new StoreCache({ maxBytes: 100 });
    const kept = (keys: string[]) => keys.map((k) => cache.get(k, cache.version) !== undefined);
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, Buffer.alloc(11), cache.version); // 12 bytes each with its key
    for (const k of ['e', 'f', 'g', 'h']) cache.set(k, Buffer.alloc(11), cache.version); // 96 bytes: all fit
    cache.get('a', cache.version); // a is used again: b is now the oldest
    cache.set('i', Buffer.alloc(11), cache.version);
    expect(kept(['b'])).toEqual([false]);
    cache.set('j', Buffer.alloc(11), cache.version);
    expect(kept(['a', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'])).toEqual([true, false, ...Array(7).fill(true)]);
  });

  it('never keeps one answer bigger than an eighth of the budget, and keeps a hot one among many large ones', () => {
    const cache = new StoreCache({ maxBytes: 800 });
    cache.set('too big', Buffer.alloc(101), cache.version);
    expect(cache.get('too big', cache.version)).toBeUndefined();
    cache.set('hot', Buffer.alloc(10), cache.version);
    for (let k = 0; k < 20; k++) {
      cache.set(`large ${k}`, Buffer.alloc(90), cache.version);
      expect(cache.get('hot', cache.version), `after large ${k}`).toBeDefined();
    }
  });

  it('builds an answer missed by several requests at once once, and builds again after a failed build', async () => {
    const cache = new StoreCache({ maxBytes: 1000, maxBody: 600 });
    let builds = 0;
    let release: (body: Buffer) => void = () => {};
    const build = () => {
      builds++;
      return new Promise<Buffer>((resolve) => {
        release = resolve;
      });
    };
    const waiting = [1, 2, 3].map(() => cache.shared('tree', cache.version, build));
    expect(builds).toBe(1);
    release(Buffer.from('the tree'));
    expect((await Promise.all(waiting)).map(String)).toEqual(['the tree', 'the tree', 'the tree']);
    expect(String(cache.shared('tree', cache.version, build))).toBe('the tree'); // kept: no build
    expect(builds).toBe(1);

    const failing = () => {
      builds++;
      return Promise.reject(new Error('database gone'));
    };
    const failed = [cache.shared('other', cache.version, failing), cache.shared('other', cache.version, failing)];
    for (const f of failed) await expect(f).rejects.toThrow('database gone');
    expect(builds).toBe(2);
    // Larger than an eighth of the budget but within maxBody: kept.
    expect((await cache.shared('other', cache.version, async () => Buffer.alloc(500))).length).toBe(500);
    expect(builds).toBe(2);
    expect(cache.get('other', cache.version)?.length).toBe(500);
  });

  it("lets the repeats' answers go with their entry, and counts a repeat's hit as a use", () => {
    const cache = new StoreCache({ maxBytes: 80 }); // bodies of 10 at most
    const v = cache.version;
    cache.set('a', Buffer.alloc(10), v);
    cache.remember('a', 'A', v);
    cache.remember('missing', 'M', v); // nothing kept under that key: nothing to repeat
    expect(cache.recall('M', v)).toBeUndefined();
    expect(cache.recall('A', v)).toEqual(Buffer.alloc(10));
    for (const k of ['b', 'c', 'd', 'e', 'f']) cache.set(k, Buffer.alloc(10), v); // 11 each: 55 + a's 12
    expect(cache.recall('A', v)).toBeDefined(); // a is used: b is now the oldest
    cache.set('g', Buffer.alloc(10), v); // 78
    cache.set('h', Buffer.alloc(10), v); // 89: b goes
    expect(cache.get('b', v)).toBeUndefined();
    expect(cache.get('c', v)).toBeDefined();
    expect(cache.recall('A', v)).toBeDefined();
    for (const k of ['i', 'j', 'k', 'l', 'm', 'n', 'o']) cache.set(k, Buffer.alloc(10), v);
    expect(cache.get('a', v)).toBeUndefined();
    expect(cache.recall('A', v)).toBeUndefined();
  });

  it('with a database version: answers only at the version read for the request, and keeps nothing read before a change', async () => {
    let db = 7;
    const cache = new StoreCache({ maxBytes: 1000, readVersion: async () => db });
    const v1 = await cache.current();
    cache.set('a', Buffer.from('at 7'), v1);
    expect(cache.get('a', await cache.current())?.toString()).toBe('at 7');

    db = 8; // committed by another instance
    const v2 = await cache.current();
    expect(v2).not.toBe(v1);
    expect(cache.get('a', v2)).toBeUndefined();
    cache.set('b', Buffer.from('read at 7, finished late'), v1);
    expect(cache.get('b', v2)).toBeUndefined();
    expect(cache.get('b', v1)).toBeUndefined();
    cache.set('b', Buffer.from('at 8'), v2);
    expect(cache.get('b', await cache.current())?.toString()).toBe('at 8');
  });

  it('fails the requests of a version read that does not answer in time, and reads again for the next', async () => {
    // Only the time limit's timer: the gate starts the next read with a real setImmediate.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const answers = [new Promise<number>(() => {}), Promise.resolve(3)]; // a server that stopped answering, then one that answers
      const cache = new StoreCache({ readVersion: () => answers.shift()!, readLimitMs: 1000 });
      const stuck = cache.current() as Promise<number>;
      const waiting = cache.current() as Promise<number>;
      const failed = expect(stuck).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      await vi.advanceTimersByTimeAsync(1000);
      await failed;
      expect(await waiting).toBe(cache.version);
    } finally {
      vi.useRealTimers();
    }
  });

  it('while a lease holds: answers at once, without reading the version; without one, reads it again', async () => {
    let reads = 0;
    let holds = false;
    const cache = new StoreCache({ readVersion: async () => ++reads && 5, lease: { holds: () => holds } });
    const v1 = await cache.current();
    expect(reads).toBe(1);
    cache.set('a', Buffer.from('kept'), v1);

    holds = true;
    expect(cache.current()).toBe(v1); // a number, not a promise: no wait at all
    expect(cache.get('a', cache.current() as number)?.toString()).toBe('kept');
    cache.clear(); // the NOTIFY of a write, or a lease taken again
    expect(cache.get('a', cache.current() as number)).toBeUndefined();
    expect(reads).toBe(1);

    holds = false;
    const v3 = await cache.current();
    expect(reads).toBe(2);
    // The database's version did not move since the last read: what was kept since stays.
    cache.set('b', Buffer.from('kept'), v3);
    expect(cache.get('b', await cache.current())?.toString()).toBe('kept');
  });

  it('a stock move lets go only of the answers holding its products, and keeps none read before it for them', () => {
    const cache = new StoreCache();
    const v = cache.version;
    const kept = (k: string) => cache.get(k, v) !== undefined;
    let mark = cache.stockMark();
    cache.set('page a', Buffer.from('a'), v, { products: ['a'], mark });
    cache.set('page b', Buffer.from('b'), v, { products: ['b'], mark });
    cache.set('list a b', Buffer.from('a b'), v, { products: ['a', 'b'], mark });
    cache.set('empty list', Buffer.from('[]'), v, { products: [], mark });
    cache.set('unscoped', Buffer.from('?'), v);
    cache.remember('page a', 'A', v);
    const readingA = cache.stockMark(); // a read of a's page begins, then a's stock moves
    const readingB = cache.stockMark();

    cache.forget(['a']);
    expect(cache.version).toBe(v); // no version move: everything else stays
    expect(['page a', 'page b', 'list a b', 'empty list', 'unscoped'].map(kept)).toEqual([
      false,
      true,
      false,
      true,
      false,
    ]);
    expect(cache.recall('A', v)).toBeUndefined(); // the repeat's copy went with it

    cache.set('page a', Buffer.from('a, stale'), v, { products: ['a'], mark: readingA });
    expect(kept('page a')).toBe(false);
    cache.set('page b again', Buffer.from('b'), v, { products: ['b'], mark: readingB });
    expect(kept('page b again')).toBe(true);
    cache.set('unscoped', Buffer.from('?'), v); // may have begun before the move: not kept at this version
    expect(kept('unscoped')).toBe(false);
    mark = cache.stockMark();
    cache.set('page a', Buffer.from('a, fresh'), v, { products: ['a'], mark });
    expect(cache.get('page a', v)?.toString()).toBe('a, fresh');

    cache.clear(); // a listing change: everything, and what was remembered of the moves
    const v2 = cache.version;
    cache.set('unscoped', Buffer.from('?'), v2);
    expect(cache.get('unscoped', v2)).toBeDefined();
  });

  it('tells read replicas when a key let go by a stock move, or an answer holding a moved product, last changed', () => {
    let now = 1_000;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const cache = new StoreCache();
      const v = cache.version;
      expect(cache.changedAt).toBe(1_000);
      cache.set('page a', Buffer.from('a'), v, { products: ['a'], mark: cache.stockMark() });
      expect(cache.since('page a')).toBe(1_000);
      now = 2_000;
      cache.forget(['a']);
      expect(cache.since('page a')).toBe(2_000); // its next miss reads where a's move is
      expect(cache.since('never kept')).toBe(1_000);
      expect(cache.movedAt(['b', 'a'])).toBe(2_000); // known only once read: then read again if need be
      expect(cache.movedAt(['b'])).toBe(1_000);
      now = 3_000;
      cache.clear();
      expect(cache.since('page a')).toBe(3_000);
      expect(cache.movedAt(['a'])).toBe(3_000);
    } finally {
      clock.mockRestore();
    }
  });
});
