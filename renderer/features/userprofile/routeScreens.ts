import { OPT_IN_ROUTES } from '#shared/api/groups.ts';
import type { RouteSettings } from '#shared/api/groups.ts';
import { areas, availableAreas, screens } from '../../i18n/es-screens.ts';
import { mail } from '../../i18n/es-mail.ts';

const names = new Map<string, string>([
  ...Object.values(areas).map((area) => [area.path, area.title] as const),
  ...availableAreas.map((area) => [area.path, area.title] as const),
  ['/help', screens.help.title],
  ['/email', mail.title],
]);

/** A screen's one name (the menu's, from es-screens), or its path for a screen without one. */
export const screenName = (path: string): string => names.get(path) ?? path;

/** Whether the start screen can open with these settings: not hidden, and an opt-in screen turned on. */
export function defaultRouteAvailable(settings: RouteSettings, path: RouteSettings['defaultRoute'] = settings.defaultRoute): boolean {
  if ((settings.hidden_routes as readonly string[]).includes(path)) return false;
  if ((OPT_IN_ROUTES as readonly string[]).includes(path)) return (settings.allowed_routes as readonly string[]).includes(path);
  return true;
}

/** The lists in the order of the contract, whatever order the user clicked them in. */
export function toggled<Path extends string>(all: readonly Path[], current: readonly Path[], path: Path, on: boolean): Path[] {
  return all.filter((candidate) => (candidate === path ? on : current.includes(candidate)));
}
