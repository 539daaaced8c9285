import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import pkg from '../package.json' with { type: 'json' };
import { precompress } from '../scripts/precompress.ts';

/** A file of react-router's production build (its package exports only the development one). */
const reactRouterProduction = (file: string) => `${import.meta.dirname}/../node_modules/react-router/dist/production/${file}`;

// The renderer: root is this folder, the build goes to dist/renderer, which the server serves
// (with the .br/.gz copies precompress() writes beside each text file).
export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), precompress()],
  define: {
    'import.meta.env.VITE_APP_VERSION': JSON.stringify(pkg.version),
  },
  resolve: {
    // React Router v7 exports its development build (dev warnings and checks) to every bundler; the
    // built app takes the production one, as React itself does. `vite` (dev) keeps the warnings.
    alias:
      command === 'build'
        ? [
            { find: /^react-router$/, replacement: reactRouterProduction('index.mjs') },
            { find: /^react-router\/dom$/, replacement: reactRouterProduction('dom-export.mjs') },
          ]
        : [],
  },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Every browser the app supports (Chromium, Electron, Firefox 115+, Safari 17+) preloads modules
    // itself; the polyfill would only add bytes to the first download.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // zod/mini builds schemas with z.* calls the bundler cannot prove pure, so every schema a module
      // defines stayed in the bundle even when nothing read it. Marked pure, unused ones drop out.
      // The catch: a z.* call made only for its effect would vanish too; lint forbids those statements.
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        codeSplitting: {
          // Everything the entry imports statically (React, the router, the store, the session calls,
          // the shell's gate and pages table) in one chunk: split by which screens share them, they
          // were a dozen small files on every first visit, each paying its own request and gzip overhead.
          groups: [{ name: 'start', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8081' },
  },
}));
