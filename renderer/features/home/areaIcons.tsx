import type { ComponentType } from 'react';
import type { RouteName } from '../../app/routes.ts';
import {
  IconBlocks, IconCatalog, IconFile, IconFolder, IconHelp, IconHome, IconInbox, IconKey, IconRecord, IconRobot, IconTools, IconTruck, IconUsers,
} from '../../ui/icons.tsx';
import type { IconProps } from '../../ui/icons.tsx';

/** The icon of each area on its home tile; the area's own page shows the same one. */
const icons: Partial<Record<RouteName, ComponentType<IconProps>>> = {
  Home: IconHome,
  Roboteka: IconCatalog,
  FlowsPanel: IconRobot,
  MacroRecorder: IconRecord,
  NotificationsDashboard: IconInbox,
  WorkEnvironmentSetup: IconKey,
  AltasBajasDashboard: IconUsers,
  FIE: IconFile,
  SmartBuilder: IconBlocks,
  DocumentManager: IconFolder,
  Frumecar: IconTruck,
  Help: IconHelp,
};

export function areaIcon(name: RouteName): ComponentType<IconProps> {
  return icons[name] ?? IconTools;
}
