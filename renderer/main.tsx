import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { sendRequest, DEFAULT_TIMEOUT_MS } from './api/http.ts';
import { clientHeaders } from './api/baseQuery.ts';
import { applogsPath } from '#shared/api/applogs-path.ts';
import { AppProviders } from './app/AppProviders.tsx';
import { embedded } from './app/env.ts';
import { installErrorReporter } from './app/errorReporter.ts';
import { AppRouter } from './app/router.tsx';
import { createAppStore } from './app/store.ts';
import { mayHaveBridge, noBridge } from './bridge/detect.ts';
import type { BridgeClient } from './bridge/types.ts';
import './ui/tokens.css';
import './ui/ui.css';
import './app/app.css';

// Reports go straight through fetch, not the store: they must work even when the app is broken.
installErrorReporter(window, {
  send: (log) => void sendRequest({ url: applogsPath, method: 'POST', body: log }, { headers: clientHeaders('es'), timeoutMs: DEFAULT_TIMEOUT_MS }),
});

const store = createAppStore();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const app = createRoot(root);

function render(bridge: BridgeClient) {
  app.render(
    <StrictMode>
      <AppProviders store={store} bridge={bridge} embedded={embedded}>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
}

// The bridge clients and the contract's schemas load only when there may be a bridge to talk to
// (the desktop window's preload, or agent settings stored in this browser); plain web mode has none.
// No top-level await here: the bridge's chunk imports from this one, which must finish evaluating first.
if (mayHaveBridge()) {
  import('./bridge/client.ts').then(
    ({ bridgeFromWindow }) => render(bridgeFromWindow()),
    () => render(noBridge), // its code did not arrive: the app still works, as in a browser
  );
} else {
  render(noBridge);
}
