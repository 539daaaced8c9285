import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Unit and API tests sit beside the code. The renderer's run in jsdom, everything else in Node.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'main/**/*.test.ts', 'preload/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
          setupFiles: ['renderer/test/setup.ts'],
        },
      },
    ],
  },
});
