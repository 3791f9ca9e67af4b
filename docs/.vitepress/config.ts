import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { sidebarFor } from './sidebar.ts';

const docsDir = fileURLToPath(new URL('..', import.meta.url));

// The manual. The API reference is not here: the app serves it, generated from the route schemas, at /docs.
export default defineConfig({
  title: 'Emporium',
  description: 'A commerce backend with a shop API, an admin panel and a plugin marketplace',
  lang: 'en',
  // Pages link to each other as ./page.md, which reads on GitHub and builds here.
  cleanUrls: false,
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: 'Manual', link: '/' },
      { text: 'Configuration', link: '/configuration' },
      { text: 'Benchmarks', link: '/benchmarks' },
    ],
    sidebar: sidebarFor(docsDir),
    outline: [2, 3],
    search: { provider: 'local' },
    footer: { message: 'MIT licensed. The API reference is served by the app at /docs.' },
  },
});
