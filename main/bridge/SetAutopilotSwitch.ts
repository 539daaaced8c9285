import type { Handler } from './context.ts';

/** The general switch ('all') or one app's; an app that cannot load yet refuses (UNAVAILABLE). */
export const SetAutopilotSwitch: Handler<'SetAutopilotSwitch'> = async ({ app, enabled }, ctx) => ctx.autopilot.setSwitch(app, enabled);
