import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCacheFile, codeCacheUse, loadWithCodeCache, saveCodeCache } from './code-cache.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'emporium-code-cache-'));
const file = path.join(dir, 'bundle.cjs');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (op: '+' | '-' | '*', mtime: number) => {
  writeFileSync(file, `module.exports = { calc: (a, b) => a ${op} b, dir: __dirname, req: typeof require };\n`);
  utimesSync(file, mtime, mtime);
};
const load = () => {
  const loaded = loadWithCodeCache(file);
  return { ...loaded, exports: loaded.exports as { calc(a: number, b: number): number; dir: string; req: string } };
};

describe('V8 code cache of the compiled server', () => {
  it('runs the file as CommonJS, saves the cache once, and the next load uses it', () => {
    write('+', 1_700_000_000);
    const first = load();
    expect(first.exports.calc(2, 3)).toBe(5);
    expect(first.exports.dir).toBe(dir);
    expect(first.exports.req).toBe('function');
    expect(first.cache).toBe('none');
    expect(codeCacheUse()).toBe('none');
    expect(saveCodeCache()).toBe(true);
    expect(existsSync(codeCacheFile(file))).toBe(true);

    const second = load();
    expect(second.cache).toBe('accepted');
    expect(second.exports.calc(2, 3)).toBe(5);
    expect(second.save()).toBe(false); // current already
  });

  it('never offers the cache of another build, even one of the same length', () => {
    const old = codeCacheFile(file);
    write('-', 1_700_000_100);
    expect(codeCacheFile(file)).not.toBe(old);
    const rebuilt = load();
    expect(rebuilt.cache).toBe('none');
    expect(rebuilt.exports.calc(2, 3)).toBe(-1);
    expect(rebuilt.save()).toBe(true);
    expect(existsSync(old)).toBe(false); // the other build's cache is removed
  });

  it('keeps one cache per variant of a build, and drops them all with the build', () => {
    write('+', 1_700_000_050);
    const pglite = loadWithCodeCache(file, 'pglite');
    expect(pglite.cache).toBe('none');
    expect(pglite.save()).toBe(true);
    const postgres = loadWithCodeCache(file, 'postgres');
    expect(postgres.cache).toBe('none'); // not the other variant's code
    expect(postgres.save()).toBe(true);
    expect(existsSync(codeCacheFile(file, 'pglite'))).toBe(true); // saving one kept the other
    expect(loadWithCodeCache(file, 'pglite').cache).toBe('accepted');
    const olds = [codeCacheFile(file, 'pglite'), codeCacheFile(file, 'postgres')];
    write('-', 1_700_000_060);
    expect(loadWithCodeCache(file, 'pglite').save()).toBe(true);
    for (const old of olds) expect(existsSync(old)).toBe(false);
  });

  it('compiles as usual when the cache is not V8’s own data', () => {
    // A source this process has not compiled yet: V8 would answer one it has from memory.
    write('*', 1_700_000_200);
    writeFileSync(codeCacheFile(file), readFileSync(file));
    const loaded = load();
    expect(loaded.cache).toBe('rejected');
    expect(loaded.exports.calc(2, 3)).toBe(6);
    expect(loaded.save()).toBe(true);
    expect(load().cache).toBe('accepted');
  });
});
