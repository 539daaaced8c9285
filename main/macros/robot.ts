/**
 * The one desktop robot of every macro flow ('macro-<id>', shared/macros/to-flow.ts): robot-process.ts
 * loads it for such a run instead of looking the flow up among the installed robots. The macro comes in
 * the run input '__macro'; passwords recorded on this machine come from its sealed store.
 */
import type { DesktopRobot } from '../../resources/flows/_lib/desktop.ts';
import { playMacroRun } from './player.ts';
import { machineMacroSecretStore } from './secrets.ts';

export const macroRobot: DesktopRobot = {
  run: (context) => playMacroRun(context, machineMacroSecretStore()),
};
