import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A sidebar section: its pages by path under docs/ without `.md`, in reading order. */
export interface Section {
  text: string;
  pages: string[];
}

export interface SidebarLink {
  text: string;
  link: string;
}

export interface SidebarGroup {
  text: string;
  items: SidebarLink[];
}

/**
 * Where each page sits in the sidebar. A page of docs/ itself that no section names still gets
 * listed, under "More", so a new `docs/<topic>.md` is on the site the moment it exists; placing
 * it in its section is one line here. A page in a sub-folder is listed only when a section names
 * it; otherwise a reachable page must link to it (test/docs.test.ts checks).
 */
export const SECTIONS: Section[] = [
  { text: 'Start', pages: ['index', 'getting-started', 'configuration', 'architecture'] },
  {
    text: 'Sell',
    pages: [
      'catalog',
      'storefront',
      'sdk-coverage',
      'checkout',
      'money',
      'orders',
      'inventory-and-fulfilment',
      'payments',
      'notifications',
      'admin-panel',
      'team-and-roles',
      'import-export',
    ],
  },
  {
    text: 'Extend',
    pages: ['api', 'webhooks', 'plugins', 'writing-a-plugin', 'plugin-sandbox', 'marketplace'],
  },
  { text: 'Operate', pages: ['operations', 'security', 'testing', 'benchmarks', 'performance'] },
];

const UNPLACED = 'More';

/** Every Markdown page under `docsDir`, as a path without `.md` (`plugins`, `guides/x`). */
export function pagesIn(docsDir: string): string[] {
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // .vitepress holds the site's config, cache and build; public/ is copied as it is.
      if (entry.name.startsWith('.') || entry.name === 'public' || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md'))
        pages.push(path.relative(docsDir, full).slice(0, -3).split(path.sep).join('/'));
    }
  };
  walk(docsDir);
  return pages.sort();
}

/** A page's title: its frontmatter `title`, else its first `# ` heading, else its file name. */
export function titleOf(markdown: string, fallback: string): string {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(markdown);
  const fromFront = front && /^title:\s*['"]?(.+?)['"]?\s*$/m.exec(front[1]);
  if (fromFront) return fromFront[1];
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(markdown);
  return heading ? heading[1].replace(/`/g, '') : fallback;
}

/**
 * The sidebar for VitePress: the sections in their order, then every top-level page no section names.
 * A section naming a page that does not exist throws, so a renamed page fails the build.
 */
export function sidebarFor(docsDir: string, sections: Section[] = SECTIONS): SidebarGroup[] {
  const pages = pagesIn(docsDir);
  const link = (page: string): SidebarLink => ({
    text: titleOf(readFileSync(path.join(docsDir, `${page}.md`), 'utf8'), page),
    link: page === 'index' ? '/' : `/${page}`,
  });
  const placed = new Set<string>();
  const groups: SidebarGroup[] = sections.map((section) => ({
    text: section.text,
    items: section.pages.map((page) => {
      if (!pages.includes(page))
        throw new Error(`docs sidebar: section "${section.text}" names ${page}.md, which does not exist`);
      placed.add(page);
      return link(page);
    }),
  }));
  const rest = pages.filter((page) => !placed.has(page) && !page.includes('/')).map(link);
  rest.sort((a, b) => a.text.localeCompare(b.text));
  if (rest.length) groups.push({ text: UNPLACED, items: rest });
  return groups;
}
