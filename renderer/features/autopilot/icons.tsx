import type { ReactElement } from 'react';
import type { AutopilotAppId } from '#shared/autopilot/state.ts';
import { IconAlert, IconFile, IconFolder, IconInbox, IconInfo, IconKey, IconMail, IconMonitor, IconRobot, IconUsers } from '../../ui/icons.tsx';
import type { IconProps } from '../../ui/icons.tsx';

/** Each app's icon, beside its tasks and its switch. */
export function AppIcon({ app, ...props }: IconProps & { app: AutopilotAppId }): ReactElement {
  if (app === 'altas') return <IconUsers {...props} />;
  if (app === 'notificaciones') return <IconInbox {...props} />;
  return <IconRobot {...props} />;
}

const chipIcons: Record<string, (props: IconProps) => ReactElement> = {
  machine: IconMonitor, monitor: IconMonitor, certificate: IconKey, key: IconKey, user: IconUsers, users: IconUsers,
  file: IconFile, folder: IconFolder, mail: IconMail, alert: IconAlert, warning: IconAlert, info: IconInfo,
};

/** An info chip's icon, by the name the desktop gives; a name it does not know draws none. */
export function ChipIcon({ name, ...props }: IconProps & { name: string }): ReactElement | null {
  const Icon = chipIcons[name];
  return Icon ? <Icon {...props} /> : null;
}

/** The autopilot's play mark (the shared set has no play icon); decorative like the others. */
export function PlayIcon({ size = 20 }: IconProps) {
  return (
    <svg className="ui-icon" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinejoin="round" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" />
      <path d="M10 8.5v7l5.5-3.5z" fill="currentColor" />
    </svg>
  );
}
