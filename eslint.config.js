// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

/** Import boundaries of ARCHITECTURE.md: renderer|server|main|preload -> shared, never sideways. */
const otherTops = (/** @type {string[]} */ ...tops) => tops.flatMap((top) => [`../${top}/*`, `../../${top}/*`, `../../../${top}/*`, `../../../../${top}/*`, `../../../../../${top}/*`]);
const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'http', 'https', 'net', 'url', 'events', 'stream', 'util', 'buffer', 'zlib'];

/** Classic zod's chainable methods defeat tree-shaking; code the renderer bundles uses 'zod/mini' (same package and core). */
const classicZod = ['zod', 'zod/v4', 'zod/v4/classic', 'zod/v3'].map((name) => ({
  name,
  message: "shared/ and renderer/ use 'zod/mini': classic zod cannot be tree-shaken and bloats the first load.",
}));

const features = (() => {
  try {
    return readdirSync(new URL('./renderer/features/', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
})();

export default tseslint.config(
  // resources/ holds assets, except the built-in flows' code, which is linted like the rest.
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'resources/*', '!resources/flows/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: classicZod, patterns: [
        { group: [...nodeBuiltins, 'react', 'react-dom', 'electron', 'fastify', 'kysely', 'better-sqlite3'], message: 'shared/ runs anywhere: no Node, DOM, React or Electron imports.' },
        { group: otherTops('server', 'main', 'preload', 'renderer', 'e2e'), message: 'shared/ imports nothing from other top folders.' },
      ] }],
    },
  },
  {
    // Robots run in a server worker or on a desktop: shared/, SheetJS and their own folder only. Desktop
    // robots may name playwright-core's types (Page, Download); the browser itself comes from the context.
    files: ['resources/flows/**/*.ts'],
    ignores: ['resources/flows/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: classicZod, patterns: [
        { regex: '^(?!xlsx$|#shared/|\\.\\.?/|playwright-core$)', message: 'A robot imports only shared/ (#shared/...), xlsx and files of resources/flows: no Node, network or other packages.' },
        { group: ['playwright-core'], allowTypeImports: true, message: 'A robot imports only types from playwright-core (import type): its browser comes from context.openBrowser().' },
        { group: otherTops('server', 'main', 'preload', 'renderer', 'e2e', 'shared', 'scripts'), message: 'A robot reaches shared/ through #shared/..., and nothing else outside resources/flows.' },
      ] }],
      'no-restricted-globals': ['error', ...['fetch', 'XMLHttpRequest', 'WebSocket', 'process', 'require'].map((name) => ({ name, message: 'Robots are pure: no network, no process; everything comes in through the run context.' }))],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'Robots read no clock: use context.startedAt.' }],
      'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Robots read no clock: use context.startedAt.' }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['electron', 'react', 'react-dom'], message: 'The server never imports Electron or React.' },
        { group: otherTops('main', 'preload', 'renderer', 'e2e'), message: 'server/ depends on shared/ only.' },
      ] }],
    },
  },
  {
    // A module is routes (HTTP) over a service (domain) over the database: only the composition (app.ts)
    // and tests reach a routes file; messages, types and hooks others need live in the module's other files.
    files: ['server/**/*.ts'],
    ignores: ['server/app.ts', 'server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['electron', 'react', 'react-dom'], message: 'The server never imports Electron or React.' },
        { group: otherTops('main', 'preload', 'renderer', 'e2e'), message: 'server/ depends on shared/ only.' },
        { group: ['**/routes.ts', '**/routes', '**/*-routes.ts'], message: 'Only server/app.ts registers routes: no other file imports a routes file, another routes file included (move what it needs into the module\'s service, errors or auth file).' },
      ] }],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['electron'], message: "Only main/electron/ imports 'electron'; handlers stay plain Node." },
        { group: otherTops('server', 'preload', 'renderer', 'e2e'), message: 'main/ depends on shared/ only.' },
      ] }],
    },
  },
  {
    files: ['main/electron/**/*.ts'],
    ignores: ['main/electron/ipc.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "ImportSpecifier[imported.name='ipcMain']", message: 'ipcMain is used only in main/electron/ipc.ts, which registers the bridge.' }],
      'no-restricted-imports': ['error', { patterns: [
        { group: otherTops('server', 'preload', 'renderer', 'e2e'), message: 'main/ depends on shared/ only.' },
      ] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { paths: classicZod, patterns: [
        { group: [...nodeBuiltins, 'electron'], message: 'The renderer runs in a browser: no Node or Electron imports (use the bridge).' },
        { group: otherTops('server', 'main', 'preload', 'e2e'), message: 'renderer/ depends on shared/ only.' },
      ] }],
    },
  },
  // Features do not import each other: each feature folder gets the others' paths forbidden.
  ...features.map((feature) => ({
    files: [`renderer/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', { paths: classicZod, patterns: [
        { group: [...nodeBuiltins, 'electron'], message: 'The renderer runs in a browser: no Node or Electron imports (use the bridge).' },
        { group: otherTops('server', 'main', 'preload', 'e2e'), message: 'renderer/ depends on shared/ only.' },
        ...features.filter((other) => other !== feature).map((other) => ({
          group: [`**/features/${other}`, `**/features/${other}/**`, `../${other}`, `../${other}/**`, `../../${other}`, `../../${other}/**`],
          message: `Features do not import each other (${feature} -> ${other}); compose them in renderer/app/ or move the shared part to renderer/ui/.`,
        })),
      ] }],
    },
  })),
  {
    files: ['renderer/app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: classicZod, patterns: [
        { group: [...nodeBuiltins, 'electron'], message: 'The renderer runs in a browser: no Node or Electron imports (use the bridge).' },
        { group: otherTops('server', 'main', 'preload', 'e2e'), message: 'renderer/ depends on shared/ only.' },
      ] }],
    },
  },
  {
    // renderer/vite.config.ts marks z.* calls pure so unused schemas drop out of the bundle: a z.* call
    // made only for its effect (z.config(...), z.globalRegistry.add(...)) would vanish from the build.
    files: ['shared/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': ['error', ...[
        "ExpressionStatement > CallExpression[callee.object.name='z']",
        "ExpressionStatement > CallExpression[callee.object.object.name='z']",
        "ExpressionStatement > AwaitExpression > CallExpression[callee.object.name='z']",
      ].map((selector) => ({ selector, message: 'The renderer build treats z.* calls as pure and drops one whose result is unused: keep its result, or call a schema method instead.' }))],
    },
  },
  {
    // No import circles anywhere (issue 20): a circle makes load order matter and hides which module
    // owns what. Type-only imports count too: they still tie the two files' designs together.
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // The graph is read from each imported file, which must be parsed as TypeScript too.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['shared', 'server', 'main', 'preload', 'renderer', 'e2e', 'scripts', 'resources/flows', 'standins/portal'].map((dir) => `${dir}/tsconfig.json`) })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
