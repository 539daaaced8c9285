/**
 * The import graph's rules that ESLint cannot see (npm run lint:deps): import-x/no-cycle in ESLint follows
 * value imports only, while a circle through `import type` still ties two files' designs together.
 * The graph is read with TypeScript's own resolution (tsPreCompilationDeps: type-only imports count).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles in any folder, type-only imports included (issue 20).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'context-imports-no-module',
      severity: 'error',
      comment:
        'AppContext (server/context.ts) holds what every module shares (database, clock, mailer, settings) and names no module: ' +
        'a capability one module gives others is built in the composition root (server/app.ts) and passed to their register functions (issue 20).',
      from: { path: '^server/context\\.ts$' },
      to: { path: '^server/modules/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
