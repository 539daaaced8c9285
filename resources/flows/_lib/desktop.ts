import type { Page } from 'playwright-core';
import type { RobotContext, RobotResult } from '#shared/flows/robot.ts';

/**
 * The robot SDK of desktop flows: what a robot that runs on the advisor's PC (or the office's agent)
 * gets besides the plain robot context. The runtime (main/robots/) builds it in the run's own child
 * process; the robot never launches a browser or reads a certificate itself.
 */
export interface DesktopRobotContext extends RobotContext {
  /**
   * A fresh Chromium page (playwright-core) whose TLS client authentication presents the certificate
   * chosen in the Certificate input `certificateInput` to the given origins (mutual TLS). Without
   * `certificateInput` (a macro that needs none), a plain context that presents no certificate. The
   * browser closes when the run ends; downloads are allowed.
   */
  openBrowser(options?: { certificateInput?: string; origins?: readonly string[] }): Promise<Page>;
  /**
   * The flow folder's settings (its settings.json: base URL, selectors), with this installation's
   * overrides applied (AUTOASESOR_ROBOT_SETTINGS): the real portal and a stand-in differ only here.
   */
  settings: Readonly<Record<string, unknown>>;
}

export interface DesktopRobot {
  run(context: DesktopRobotContext): Promise<RobotResult>;
}
