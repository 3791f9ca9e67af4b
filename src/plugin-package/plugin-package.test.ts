import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { validateManifest } from './manifest.ts';
import { packPackage } from './pack-package.ts';
import { readPackage } from './read-package.ts';
import { manifestJson, rawTarball } from './plugin-package.testing.ts';
import { compareVersions, isVersion, versionSortKey } from './versions.ts';

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/plugins');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('compareVersions', () => {
  it('compares numerically per segment', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.9.9', '1.10.0')).toBe(-1);
    expect(compareVersions('2.0.0', '10.0.0')).toBe(-1);
    expect(compareVersions('1.0.10', '1.0.9')).toBe(1);
  });

  it('treats missing segments as 0', () => {
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    expect(compareVersions('1', '1.0.0.0')).toBe(0);
    expect(compareVersions('1.0.0.1', '1.0')).toBe(1);
  });

  it('refuses what is not dotted numeric', () => {
    for (const v of ['', '1.', '.1', 'v1.0', '1.0.0-beta', '01.2', '1.2.3.4.5', '1..2', ' 1.0', '1234567890']) {
      expect(isVersion(v), v).toBe(false);
      expect(() => compareVersions(v, '1.0.0')).toThrow(/dotted numeric/);
    }
  });

  it('gives sort keys that order like the versions and equate 1.0 with 1.0.0', () => {
    const versions = ['1.10.0', '1.9.9', '0.1', '1.0', '10.0.0', '1.0.0.1'];
    const byKey = [...versions].sort((a, b) => (versionSortKey(a) < versionSortKey(b) ? -1 : 1));
    expect(byKey).toEqual([...versions].sort(compareVersions));
    expect(versionSortKey('1.0')).toBe(versionSortKey('1.0.0'));
  });
});

describe('validateManifest', () => {
  const base = JSON.parse(manifestJson());

  it('accepts a minimal manifest and defaults engine to *', () => {
    expect(validateManifest(base)).toEqual({ ...base, engine: '*' });
  });

  it.each([
    [{ id: 'Hello' }, "field 'id' must be a lower-case slug"],
    [{ vendor: '@acme' }, "field 'vendor' must be a lower-case slug"],
    [{ version: '1.0.0-beta' }, "field 'version' must be dotted numeric"],
    [{ version: 1 }, "field 'version' must be string"],
    [{ type: 'theme' }, "field 'type' must be one of admin-extension, integration"],
    [{ server: '../escape.js' }, "field 'server' must be a relative path"],
    [{ server: '/abs/index.js' }, "field 'server' must be a relative path"],
    [{ admin: 'admin/index.ts' }, "field 'admin' must be a relative path to a .js or .mjs file"],
    [{ engine: 'not a range' }, "field 'engine' must be a semver range"],
    [{ sever: 'x.js' }, "unknown field 'sever'"],
    [
      { config: [{ key: 'k', label: 'K', type: 'date' }] },
      "field 'config.0.type' must be one of string, number, boolean",
    ],
    [
      {
        config: [
          { key: 'k', label: 'K', type: 'string' },
          { key: 'k', label: 'K2', type: 'number' },
        ],
      },
      "config key 'k' appears twice",
    ],
  ])('refuses %j', (override, message) => {
    expect(() => validateManifest({ ...base, ...override })).toThrow(message);
  });

  it('names a missing required field', () => {
    const { name: _name, ...rest } = base;
    expect(() => validateManifest(rest)).toThrow("field 'name' is required");
    expect(() => validateManifest([])).toThrow('must be a JSON object');
  });
});

describe('readPackage', () => {
  const manifest = { name: 'manifest.json', data: manifestJson({ server: 'server/index.js' }) };
  const server = { name: 'server/index.js', data: 'export default { register() {} };' };

  it('reads files at the root and normalises ./ prefixes', async () => {
    const pkg = await readPackage(
      await rawTarball([
        { name: './manifest.json', data: manifest.data },
        { name: 'server/', type: 'directory' },
        server,
      ]),
    );
    expect(pkg.manifest.id).toBe('sample');
    expect([...pkg.files.keys()].sort()).toEqual(['manifest.json', 'server/index.js']);
  });

  it.each([
    [
      'an absolute path',
      [manifest, server, { name: '/etc/cron.d/x', data: 'x' }],
      'Absolute path in package: "/etc/cron.d/x"',
    ],
    ['a .. segment', [manifest, server, { name: 'server/../../x.js', data: 'x' }], 'Path traversal in package'],
    ['a symlink', [manifest, server, { name: 'link', type: 'symlink', linkname: '/etc/passwd' }], 'is a symlink'],
    ['a hard link', [manifest, server, { name: 'hard', type: 'link', linkname: 'manifest.json' }], 'is a link'],
    ['a device', [manifest, server, { name: 'tty', type: 'character-device' }], 'is a character-device'],
    ['a duplicate', [manifest, server, server], 'contains "server/index.js" twice'],
    ['no manifest', [server], 'Package has no manifest.json'],
    ['a package/ prefix', [{ ...manifest, name: 'package/manifest.json' }], 'manifest.json must be at the root'],
    ['a missing server entry', [manifest], 'names server entry "server/index.js", which is not in the package'],
    ['bad JSON', [{ name: 'manifest.json', data: '{ "id": ' }], 'manifest.json is not valid JSON'],
  ] as const)('refuses %s', async (_what, entries, message) => {
    await expect(readPackage(await rawTarball(entries as never))).rejects.toThrow(message);
  });

  it('refuses a migrations folder without .sql files', async () => {
    const m = { name: 'manifest.json', data: manifestJson({ migrations: 'migrations' }) };
    await expect(readPackage(await rawTarball([m, { name: 'migrations/readme.txt', data: 'x' }]))).rejects.toThrow(
      'has no .sql file',
    );
    await expect(
      readPackage(await rawTarball([m, { name: 'migrations/0001.sql', data: 'create table t (id int);' }])),
    ).resolves.toBeTruthy();
  });

  it('refuses what is not a gzip, is too big, or unpacks too big', async () => {
    await expect(readPackage(Buffer.from('just text, not a tarball'))).rejects.toThrow('not a gzip file');
    const fakeGzip = Buffer.concat([Buffer.from([0x1f, 0x8b]), randomBytes(100)]);
    await expect(readPackage(fakeGzip)).rejects.toThrow('not a valid gzip file');
    await expect(readPackage(gzipSync(Buffer.from('not a tar archive at all')))).rejects.toThrow(
      /not a valid tar archive|empty/,
    );
    const huge = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(10 * 1024 * 1024)]);
    await expect(readPackage(huge)).rejects.toThrow('larger than 10 MiB compressed');
    const bomb = await rawTarball([manifest, server, { name: 'zeros.bin', data: Buffer.alloc(51 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(readPackage(bomb)).rejects.toThrow('unpacks to more than 50 MiB');
  });

  it('refuses more than 2,000 entries', async () => {
    const many = Array.from({ length: 2001 }, (_, i) => ({ name: `f/${i}.txt`, data: '' }));
    await expect(readPackage(await rawTarball([manifest, server, ...many]))).rejects.toThrow('more than 2000 entries');
  });
});

describe('packPackage', () => {
  it('packs every example plugin into a package readPackage accepts', async () => {
    for (const [dir, id, type] of [
      ['hello-widget', 'hello-widget', 'admin-extension'],
      ['order-notes', 'order-notes', 'integration'],
      ['loyalty-points', 'loyalty-points', 'integration'],
    ]) {
      const pkg = await readPackage(await packPackage(path.join(EXAMPLES, dir)));
      expect(pkg.manifest).toMatchObject({ id, vendor: 'acme', type });
      expect(pkg.files.has('README.md')).toBe(true);
    }
  });

  it('is deterministic: same files, same bytes, whatever the file times', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'emporium-pack-'));
    writeFileSync(path.join(dir, 'manifest.json'), manifestJson({ server: 'server/index.js' }));
    mkdirSync(path.join(dir, 'server'));
    writeFileSync(path.join(dir, 'server/index.js'), 'export default { register() {} };');
    const first = await packPackage(dir);
    writeFileSync(path.join(dir, 'server/index.js'), 'export default { register() {} };'); // new mtime, same content
    const second = await packPackage(dir);
    expect(sha(second)).toBe(sha(first));
    expect(second.equals(first)).toBe(true);
    expect(first.readUInt32LE(4)).toBe(0); // gzip header mtime
    writeFileSync(path.join(dir, 'server/index.js'), 'export default { register() { /* changed */ } };');
    expect(sha(await packPackage(dir))).not.toBe(sha(first));
  });

  it('skips dot files, node_modules and earlier packs; refuses symlinks', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'emporium-pack-'));
    writeFileSync(path.join(dir, 'manifest.json'), manifestJson());
    writeFileSync(path.join(dir, '.env'), 'SECRET=1');
    writeFileSync(path.join(dir, 'old.tgz'), 'x');
    mkdirSync(path.join(dir, 'node_modules'));
    writeFileSync(path.join(dir, 'node_modules/x.js'), 'x');
    expect([...(await readPackage(await packPackage(dir))).files.keys()]).toEqual(['manifest.json']);
    symlinkSync('/etc/passwd', path.join(dir, 'passwd'));
    await expect(packPackage(dir)).rejects.toThrow('is a symbolic link');
  });

  it('refuses a folder without a valid manifest', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'emporium-pack-'));
    await expect(packPackage(dir)).rejects.toThrow('has no manifest.json');
    writeFileSync(path.join(dir, 'manifest.json'), manifestJson({ version: 'latest' }));
    await expect(packPackage(dir)).rejects.toThrow("field 'version' must be dotted numeric");
    await expect(packPackage(path.join(dir, 'missing'))).rejects.toThrow('is not a folder');
  });
});
