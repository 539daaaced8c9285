import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// jsdom has no CSS.escape, which every browser has and React Aria calls: the CSSOM serialisation rules.
if (typeof globalThis.CSS === 'undefined' || typeof globalThis.CSS.escape !== 'function') {
  const escape = (value: string): string =>
    Array.from(String(value), (char, index) => {
      const code = char.charCodeAt(0);
      if (code === 0) return '\uFFFD';
      const isDigit = code >= 0x30 && code <= 0x39;
      if ((code >= 0x01 && code <= 0x1f) || code === 0x7f || (isDigit && (index === 0 || (index === 1 && value.startsWith('-'))))) {
        return `\\${code.toString(16)} `;
      }
      if (index === 0 && char === '-' && value.length === 1) return '\\-';
      if (code >= 0x80 || char === '-' || char === '_' || isDigit || /[a-zA-Z]/.test(char)) return char;
      return `\\${char}`;
    }).join('');
  Object.defineProperty(globalThis, 'CSS', { value: { ...(globalThis.CSS ?? {}), escape }, configurable: true });
}

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// Test files of a worker share one module graph (isolate: false in vitest.config.ts). Loading the app
// and every screen here, awaited before the first test, means no file leaves a lazy screen's import
// half done when its environment is torn down (the next file then failed to load that module).
await import('./renderApp.tsx');
await Promise.all(Object.values(import.meta.glob('../features/*/*Page.tsx')).map((load) => load()));
