import type { Handler } from './context.ts';

/** The desktop app runs the execution loop while the panel is open (spec §4); the agent's always runs. */
export const SetAutopilotPanelOpen: Handler<'SetAutopilotPanelOpen'> = async ({ open }, ctx) => ctx.autopilot.setPanelOpen(open);
