import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import pkg from '../package.json' with { type: 'json' };
import { precompress } from '../scripts/precompress.ts';

// The renderer: root is this folder, the build goes to dist/renderer, which the server serves
// (with the .br/.gz copies precompress() writes beside each text file).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), precompress()],
  define: {
    'import.meta.env.VITE_APP_VERSION': JSON.stringify(pkg.version),
  },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Every browser the app supports (Chromium, Electron, Firefox 115+, Safari 17+) preloads modules
    // itself; the polyfill would only add bytes to the first download.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8081' },
  },
});
