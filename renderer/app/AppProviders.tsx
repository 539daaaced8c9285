import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { BridgeClient } from '../bridge/client.ts';
import { BridgeContext, EmbeddedContext } from './contexts.ts';
import { PromptProvider } from './shell/PromptProvider.tsx';
import type { AppStore } from './store.ts';

export interface AppProvidersProps {
  store: AppStore;
  bridge: BridgeClient;
  embedded: boolean;
  children: ReactNode;
}

/** Store, bridge, mode and prompt: what every screen may reach through renderer/app/hooks.ts. */
export function AppProviders({ store, bridge, embedded, children }: AppProvidersProps) {
  return (
    <Provider store={store}>
      <EmbeddedContext.Provider value={embedded}>
        <BridgeContext.Provider value={bridge}>
          <PromptProvider>{children}</PromptProvider>
        </BridgeContext.Provider>
      </EmbeddedContext.Provider>
    </Provider>
  );
}
