import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { THEME_INIT_SCRIPT } from './src/shared/theme-init-script';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Writes a Brotli (quality 11) and a gzip copy beside every built script, stylesheet and SVG; the
 * server sends those as they are (@fastify/static preCompressed). Quality 11 is too slow per request
 * but free at build time, and it takes about a sixth off the login page's JavaScript.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'afp-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg)$/.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: {
              [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
              [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * The theme script, inline at the top of the head (docs/decisions/0048-inline-theme-script-by-hash.md):
 * it runs before the first paint without a request of its own. The server's content security
 * policy names this exact text by its hash.
 */
function inlineThemeScript(): Plugin {
  return {
    name: 'afp-inline-theme-script',
    transformIndexHtml: () => [{ tag: 'script', children: THEME_INIT_SCRIPT, injectTo: 'head-prepend' }],
  };
}

/**
 * The installable app (docs/decisions/0101-installable-app-and-facilitators-days-offline.md): the web
 * app manifest and the service worker, our own source (`src/client/sw/sw.ts`) with the build's file
 * list injected for precaching. The client registers it itself (`src/client/lib/service-worker.ts`).
 */
function installableApp() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'sw',
    filename: 'sw.ts',
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    manifest: {
      name: 'Arts Facilitator Portal',
      short_name: 'Facilitators',
      description: 'Mark your availability and see your booked school sessions.',
      id: '/',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#6d28d9',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    injectManifest: {
      // The app shell: the HTML, every script and stylesheet, the favicon (the manifest's icons are
      // added). The staff pages' files are left out (a facilitator's phone never runs them, and staff
      // work online), and so are the .br/.gz copies.
      globPatterns: ['index.html', 'assets/*.{js,css}', 'favicon.svg'],
      globIgnores: ['assets/staff-*'],
    },
  });
}

// The client lives in src/client; the server serves its build from dist/client.
export default defineConfig({
  root: here('./src/client'),
  publicDir: here('./src/client/public'),
  plugins: [react(), tailwindcss(), inlineThemeScript(), installableApp(), precompress()],
  resolve: {
    alias: {
      '@': here('./src/client'),
      '@shared': here('./src/shared'),
    },
  },
  build: {
    outDir: here('./dist/client'),
    emptyOutDir: true,
    sourcemap: false,
    // the server reads it to preload each page's own code with the page (ADR 28)
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // A page's code as one file beside the main script, not two dozen small shared ones: on a
          // slow phone link each file is a round trip (docs/decisions/0052-one-file-per-page.md).
          // The shared modules are copied into each page's file; Rolldown's runtime keeps one
          // instance of each. Stylesheets stay files of their own, as Vite needs them.
          experimentalInlineCommonChunks: { maxSize: Number.POSITIVE_INFINITY, exclude: /\.css(\?|$)/ },
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:5000' },
  },
});
