import type { RobotFile, RobotLogLevel, RobotOutput } from '#shared/flows/robot.ts';
import type { DesktopRobotContext } from '../../../resources/flows/_lib/desktop.ts';
import type { RobotBrowsers } from './browser.ts';

/** How the context reaches the parent process (robot-process.ts posts over IPC). */
export interface RobotReporter {
  log(level: RobotLogLevel, text: string): void;
  progress(successful: number, total: number): void;
}

export interface DesktopContextParts {
  inputs: Readonly<Record<string, unknown>>;
  /** Each FileUpload input's files, by input key, as the device runner downloaded them. */
  files: Readonly<Record<string, readonly RobotFile[]>>;
  /** The flow's settings.json with this installation's overrides applied. */
  settings: Readonly<Record<string, unknown>>;
  startedAt: Date;
  signal: AbortSignal;
  browsers: RobotBrowsers;
  /** Opens an output written as it is made, into the run's folder (staged-outputs.ts). */
  output?: (name: string) => RobotOutput;
}

/**
 * What a desktop robot gets (resources/flows/_lib/desktop.ts): its files as the server worker gives a
 * server robot's (bytes per FileUpload input key). Log text and progress figures are coerced to what the run log stores.
 */
export function createDesktopRobotContext(parts: DesktopContextParts, reporter: RobotReporter): DesktopRobotContext {
  return {
    inputs: parts.inputs,
    files: parts.files,
    settings: parts.settings,
    startedAt: parts.startedAt,
    signal: parts.signal,
    log: (level, text) => reporter.log(level === 'warn' || level === 'error' ? level : 'info', String(text)),
    progress: (successful, total) => reporter.progress(wholeCount(successful), wholeCount(total)),
    openBrowser: (request) => parts.browsers.open(request),
    ...(parts.output && { output: parts.output }),
  };
}

function wholeCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** The flow's settings with the installation's overrides on top, key by key (an override replaces a whole key). */
export function mergedSettings(flowSettings: Readonly<Record<string, unknown>>, overrides: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return Object.freeze({ ...flowSettings, ...overrides });
}
