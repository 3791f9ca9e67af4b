import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pagesIn, type Section, sidebarFor } from '../docs/.vitepress/sidebar.ts';

/**
 * The checks behind test/docs.test.ts: the manual's links and anchors resolve, every page can be
 * reached from the sidebar, and every variable config.ts reads is on the configuration page.
 * Each takes the repository's root, so the test can also run it on a tree with planted faults.
 */

const FENCE = /^\s*(```|~~~)/;

/** The Markdown outside front matter and fenced code, line by line (code lines blanked, numbering kept). */
function proseLines(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  let inFence: string | null = null;
  let inFront = lines[0] === '---';
  return lines.map((line, i) => {
    if (inFront) {
      if (i > 0 && line === '---') inFront = false;
      return '';
    }
    const fence = FENCE.exec(line);
    if (fence && (inFence === null || fence[1] === inFence)) {
      inFence = inFence === null ? fence[1] : null;
      return '';
    }
    return inFence === null ? line : '';
  });
}

/** A line without its inline code spans (a link written as code is not a link). */
const withoutCode = (line: string) => line.replace(/(`+)[\s\S]*?\1/g, '');

/** The text a heading renders to: code spans keep their content, links their text, emphasis goes. */
function headingText(raw: string): string {
  return raw
    .split(/(`+[^`]*`+)/)
    .map((part) =>
      part.startsWith('`')
        ? part.replace(/^`+|`+$/g, '')
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/\*\*|__|\*/g, '')
            .replace(/(^|\W)_+|_+(?=\W|$)/g, '$1')
            .replace(/<[^>]+>/g, ''),
    )
    .join('')
    .trim();
}

/** GitHub's heading ids (github-slugger): lower case, punctuation dropped, each space a dash. */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** VitePress's heading ids (its slugify): runs of punctuation and spaces become one dash. */
export function vitepressSlug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036F]/g, '')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: VitePress drops control characters from ids; so must we.
      .replace(/[\u0000-\u001f]/g, '')
      .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '')
      .replace(/^(\d)/, '_$1')
      .toLowerCase()
  );
}

/**
 * The anchors a page offers. A page is read on GitHub and on the site, which make ids
 * differently, so an anchor counts only when both make it.
 */
export function anchorsOf(markdown: string): Set<string> {
  const seen = { github: new Map<string, number>(), vitepress: new Map<string, number>() };
  const unique = (kind: keyof typeof seen, slug: string) => {
    const n = seen[kind].get(slug) ?? 0;
    seen[kind].set(slug, n + 1);
    return n === 0 ? slug : `${slug}-${n}`;
  };
  const github = new Set<string>();
  const vitepress = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      const text = headingText(heading[1]);
      github.add(unique('github', githubSlug(text)));
      vitepress.add(unique('vitepress', vitepressSlug(text)));
    }
    for (const id of line.matchAll(/\sid="([^"]+)"/g)) {
      github.add(id[1]);
      vitepress.add(id[1]);
    }
  }
  return new Set([...github].filter((a) => vitepress.has(a)));
}

export interface Link {
  line: number;
  target: string;
}

/** Inline links, images, reference definitions and HTML href/src of a page, outside code. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  proseLines(markdown).forEach((raw, i) => {
    const line = withoutCode(raw);
    const found = [
      ...line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+["'][^)]*["'])?\s*\)/g),
      ...line.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g),
      ...line.matchAll(/\s(?:href|src)="([^"]*)"/g),
    ];
    for (const m of found) links.push({ line: i + 1, target: m[1] });
  });
  return links;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** The Markdown files the checks read: README.md and every page under docs/. */
export function manualFiles(root: string): string[] {
  return ['README.md', ...pagesIn(path.join(root, 'docs')).map((page) => `docs/${page}.md`)];
}

/** Every relative link and anchor of README.md and docs/ that does not resolve, one line each. */
export function brokenLinks(root: string): string[] {
  const problems: string[] = [];
  const docsDir = path.join(root, 'docs');
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
    return anchorCache.get(file)!;
  };
  for (const rel of manualFiles(root)) {
    const file = path.join(root, rel);
    for (const { line, target } of linksOf(readFileSync(file, 'utf8'))) {
      const where = `${rel}:${line}: ${target}`;
      if (isExternal(target)) continue;
      if (target.startsWith('/')) {
        problems.push(`${where}: a link from the root works on neither GitHub nor the site; make it relative`);
        continue;
      }
      const [rawPath, anchor] = target.split('#', 2);
      const resolved = rawPath ? path.resolve(path.dirname(file), decodeURIComponent(rawPath)) : file;
      if (!existsSync(resolved)) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (rel.startsWith('docs/') && path.relative(docsDir, resolved).startsWith('..')) {
        problems.push(`${where}: the site holds only docs/; name a file outside it as code instead of linking it`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!resolved.endsWith('.md') || statSync(resolved).isDirectory()) continue;
      if (!anchors(resolved).has(anchor)) problems.push(`${where}: no heading with that anchor`);
    }
  }
  return problems;
}

/** Pages under docs/ that neither the sidebar nor a link from a reachable page leads to. */
export function unreachablePages(root: string, sections?: Section[]): string[] {
  const docsDir = path.join(root, 'docs');
  const pages = new Set(pagesIn(docsDir));
  const queue = sidebarFor(docsDir, sections).flatMap((group) =>
    group.items.map((item) => (item.link === '/' ? 'index' : item.link.slice(1))),
  );
  if (pages.has('index')) queue.push('index');
  const reached = new Set<string>();
  while (queue.length) {
    const page = queue.pop()!;
    if (reached.has(page) || !pages.has(page)) continue;
    reached.add(page);
    const file = path.join(docsDir, `${page}.md`);
    for (const { target } of linksOf(readFileSync(file, 'utf8'))) {
      const rawPath = target.split('#')[0];
      if (isExternal(target) || !rawPath.endsWith('.md')) continue;
      const resolved = path.resolve(path.dirname(file), decodeURIComponent(rawPath));
      queue.push(path.relative(docsDir, resolved).slice(0, -3).split(path.sep).join('/'));
    }
  }
  return [...pages].filter((page) => !reached.has(page)).map((page) => `docs/${page}.md`);
}

const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_?$/;

/**
 * The environment variables a config source reads: `env.NAME`, `env['NAME']`, and names passed
 * as string literals (`intVar(env, 'PORT', …)`, a list of required names).
 */
export function envNamesIn(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]);
  for (const m of source.matchAll(/'([A-Z][A-Z0-9_]*)'/g)) if (ENV_NAME.test(m[1])) names.add(m[1]);
  return [...names].sort();
}

/** config.ts and the files it imports that read the environment too (storage-config.ts). */
export function configSources(configFile: string): string[] {
  const source = readFileSync(configFile, 'utf8');
  const imported = [...source.matchAll(/from '(\.{1,2}\/[^']+\.ts)'/g)]
    .map((m) => path.resolve(path.dirname(configFile), m[1]))
    .filter((file) => existsSync(file) && /\benv\b/.test(readFileSync(file, 'utf8')));
  return [configFile, ...imported];
}

/** Variables named in the first column of the configuration page's tables. */
export function documentedVariables(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of proseLines(markdown)) {
    const cell = /^\s*\|([^|]*)\|/.exec(line);
    if (!cell) continue;
    for (const code of cell[1].matchAll(/`([^`]+)`/g)) names.add(code[1].trim());
  }
  return names;
}

/** Variables config.ts reads that the configuration page's tables do not list. */
export function undocumentedVariables(root: string): string[] {
  const read = configSources(path.join(root, 'src/platform/config.ts')).flatMap((file) =>
    envNamesIn(readFileSync(file, 'utf8')),
  );
  const documented = documentedVariables(readFileSync(path.join(root, 'docs/configuration.md'), 'utf8'));
  return [...new Set(read)].filter((name) => !documented.has(name)).sort();
}
