import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { sendRequest, DEFAULT_TIMEOUT_MS } from './api/http.ts';
import { clientHeaders } from './api/baseQuery.ts';
import { applogsPath } from '#shared/api/applogs.ts';
import { AppProviders } from './app/AppProviders.tsx';
import { embedded } from './app/env.ts';
import { installErrorReporter } from './app/errorReporter.ts';
import { AppRouter } from './app/router.tsx';
import { createAppStore } from './app/store.ts';
import { bridgeFromWindow } from './bridge/client.ts';
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

createRoot(root).render(
  <StrictMode>
    <AppProviders store={store} bridge={bridgeFromWindow()} embedded={embedded}>
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
