/**
 * Bundles the desktop app's main process (ESM) and preload (CommonJS: a sandboxed preload cannot
 * load other files, so the contract it allowlists is bundled into it) into dist/desktop/.
 */
import { build } from 'vite';
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    ssr: 'main/electron/main.ts',
    outDir: 'dist/desktop',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: {
      external: ['electron', ...nodeBuiltins, ...Object.keys(pkg.dependencies)],
      output: { format: 'es', entryFileNames: 'main.js' },
    },
  },
});

await build({
  configFile: false,
  logLevel: 'warn',
  ssr: { noExternal: true },
  build: {
    ssr: 'preload/index.ts',
    outDir: 'dist/desktop',
    emptyOutDir: false,
    target: 'node20',
    rollupOptions: {
      external: ['electron'],
      output: { format: 'cjs', entryFileNames: 'preload.cjs' },
    },
  },
});
console.log('Aplicación de escritorio compilada en dist/desktop/ (main.js, preload.cjs).');
