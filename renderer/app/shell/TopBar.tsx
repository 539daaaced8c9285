import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import type { BridgeCommand } from '#shared/bridge/contract.ts';
import { useLauncherSubscriptionQuery } from '../../api/account.ts';
import { es } from '../../i18n/es.ts';
import { IconClose, IconMaximize, IconMenu, IconMinimize } from '../../ui/icons.tsx';
import type { IconProps } from '../../ui/icons.tsx';
import { useAppDispatch, useBridge, useEmbedded, useSession, useToast } from '../hooks.ts';
import { menuToggled } from '../ui.ts';
import { CreditChip } from './CreditChip.tsx';
import { ExpiryWarning } from './ExpiryWarning.tsx';

type WindowCommand = Extract<BridgeCommand, 'Minimize' | 'Maximize' | 'CloseWindow'>;
const windowButtons: { command: WindowCommand; label: string; Icon: ComponentType<IconProps> }[] = [
  { command: 'Minimize', label: es.topBar.minimize, Icon: IconMinimize },
  { command: 'Maximize', label: es.topBar.maximize, Icon: IconMaximize },
  { command: 'CloseWindow', label: es.topBar.close, Icon: IconClose },
];

export function TopBar({ menuOpen }: { menuOpen: boolean }) {
  const dispatch = useAppDispatch();
  const { user } = useSession();
  const embedded = useEmbedded();
  const bridge = useBridge();
  const toast = useToast();
  const { data: subscription } = useLauncherSubscriptionQuery(undefined, { skip: !user });

  const runWindowCommand = async (command: WindowCommand) => {
    const result = await bridge.invoke(command, {});
    if (!result.ok) toast.error(result.error.message || es.topBar.windowFailed);
  };

  return (
    <header className={embedded && bridge.available ? 'app-topbar app-topbar--window' : 'app-topbar'}>
      {/* One line at every width: below 900 px the greeting and the plan give way (app.css), the rest stays. */}
      <button type="button" className="app-topbar__menu" aria-expanded={menuOpen} aria-controls={menuOpen ? 'app-side-menu' : undefined} onClick={() => dispatch(menuToggled())}>
        <IconMenu size={18} /> <span className="app-topbar__menu-text">{es.topBar.menu}</span>
      </button>
      <Link to="/" className="app-topbar__brand">
        {es.appName}
      </Link>
      {user && <span className="app-topbar__greeting">{es.topBar.greeting(user.name)}</span>}
      <span className="app-topbar__spacer" />
      {subscription?.active && !subscription.trialing && <span className="app-topbar__plan">{subscription.name}</span>}
      {user && <ExpiryWarning />}
      {subscription && user && <CreditChip balance={subscription.balance} currencies={user.group.config.currencies} />}
      {embedded && bridge.available && (
        <div className="app-topbar__window" role="group" aria-label={es.appName}>
          {windowButtons.map(({ command, label, Icon }) => (
            <button key={command} type="button" aria-label={label} title={label} onClick={() => void runWindowCommand(command)}>
              <Icon size={18} />
            </button>
          ))}
        </div>
      )}
    </header>
  );
}
