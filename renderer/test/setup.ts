import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default; a lazy route's first render on a loaded 2-core CI
// machine took longer (UpdatePrompt 'never asks in web mode' failed at ~1.04 s). A wait that passes
// ends as soon as it passes, so a longer ceiling costs nothing when the app is right.
configure({ asyncUtilTimeout: 4000 });

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
