import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes `.gz` and `.br` beside every script, style and page, so the server sends them
 * compressed without compressing per request (@fastify/static `preCompressed`).
 */
function precompress(): Plugin {
  return {
    name: 'emporium-precompress',
    apply: 'build',
    // After writing: the files on disk are final (Vite rewrites chunks until generateBundle ends).
    writeBundle(opts, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg)$/.test(fileName)) continue;
        const file = path.join(opts.dir!, fileName);
        const bytes = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(bytes));
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 400 },
  // `npm run dev:admin` proxies the API to a server on 9000, so cookies stay same-origin.
  server: { port: 5173, proxy: { '/admin': 'http://127.0.0.1:9000', '/store': 'http://127.0.0.1:9000' } },
});
