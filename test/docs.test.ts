import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sidebarFor } from '../docs/.vitepress/sidebar.ts';
import {
  anchorsOf,
  brokenLinks,
  envNamesIn,
  githubSlug,
  undocumentedVariables,
  unreachablePages,
  vitepressSlug,
} from './docs-check.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('the manual', () => {
  it('has no relative link or anchor that does not resolve, in README.md or docs/', () => {
    expect(brokenLinks(root)).toEqual([]);
  });

  it('reaches every page of docs/ from the sidebar or from a page the sidebar reaches', () => {
    expect(unreachablePages(root)).toEqual([]);
  });

  it('lists every variable config.ts reads on the configuration page', () => {
    expect(undocumentedVariables(root)).toEqual([]);
  });

  it('keeps README.md a front page of at most 300 lines', () => {
    expect(readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });
});

describe('the checks find planted faults', () => {
  const tree = mkdtempSync(path.join(tmpdir(), 'docs-check-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(tree, rel)), { recursive: true });
    writeFileSync(path.join(tree, rel), text);
  };
  write('README.md', '# Shop\n\nSee [setup](docs/setup.md#install) and [gone](docs/gone.md).\n');
  write(
    'docs/index.md',
    [
      '# Manual',
      '[setup](./setup.md#no-such-heading) · [source](../src/platform/config.ts) · [root](/setup.md)',
      '`[not a link](./missing.md)`',
      '```md',
      '[in a fence](./missing.md)',
      '```',
    ].join('\n'),
  );
  write('docs/setup.md', '# Setup\n\n## Install\n\n| Variable | Default |\n| --- | --- |\n| `PORT` | `9000` |\n');
  write('docs/configuration.md', '# Configuration\n\n| Variable | Meaning |\n| --- | --- |\n| `PORT` | the port |\n');
  write('docs/guides/orphan.md', '# Nobody links here\n');
  write('docs/guides/linked.md', '# Linked from the sidebar page\n');
  write('docs/setup-more.md', '# More\n\n[deeper](./guides/linked.md)\n');
  write(
    'src/platform/config.ts',
    "import { storage } from './storage-config.ts';\nconst port = intVar(env, 'PORT', 9000);\nconst host = env.HOST;\n",
  );
  write('src/platform/storage-config.ts', "export const storage = (env) => env['S3_BUCKET'] ?? env.FILE_STORAGE;\n");

  it('reports a missing file, a missing anchor, a link out of docs/ and a link from the root', () => {
    expect(brokenLinks(tree)).toEqual([
      'README.md:3: docs/gone.md: no such file',
      'docs/index.md:2: ./setup.md#no-such-heading: no heading with that anchor',
      'docs/index.md:2: ../src/platform/config.ts: the site holds only docs/; name a file outside it as code instead of linking it',
      'docs/index.md:2: /setup.md: a link from the root works on neither GitHub nor the site; make it relative',
    ]);
  });

  it('reports a page in a folder that nothing links to', () => {
    expect(unreachablePages(tree, [])).toEqual(['docs/guides/orphan.md']);
  });

  it('reports a variable config.ts (or a config file it imports) reads that the page does not list', () => {
    expect(undocumentedVariables(tree)).toEqual(['FILE_STORAGE', 'HOST', 'S3_BUCKET']);
  });

  it('fails the sidebar when a section names a page that does not exist', () => {
    expect(() => sidebarFor(path.join(tree, 'docs'), [{ text: 'Start', pages: ['index', 'renamed'] }])).toThrow(
      /renamed\.md, which does not exist/,
    );
  });
});

describe('anchors', () => {
  it('are made as GitHub and VitePress make them, and count only where both agree', () => {
    expect(githubSlug('What npm start runs')).toBe('what-npm-start-runs');
    expect(vitepressSlug('Paid plugins (shop side)')).toBe('paid-plugins-shop-side');
    expect(githubSlug('Health & readiness')).toBe('health--readiness');
    expect(vitepressSlug('Health & readiness')).toBe('health-readiness');
    const anchors = anchorsOf('# Ops\n\n## What `npm start` runs\n\n## Health & readiness\n\n## Ops\n');
    expect([...anchors].sort()).toEqual(['ops', 'ops-1', 'what-npm-start-runs']);
  });

  it('ignore headings inside fenced code', () => {
    expect([...anchorsOf('# A\n\n```sh\n# a comment, not a heading\n```\n')]).toEqual(['a']);
  });

  it('env names include string literals passed for the environment', () => {
    expect(envNamesIn("intVar(env, 'STORE_RATE_LIMIT', 1); env.HOST; fail('bad value')")).toEqual([
      'HOST',
      'STORE_RATE_LIMIT',
    ]);
  });
});
