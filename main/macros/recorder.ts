/**
 * The macro recorder (issue 41): the robot's own Chromium (the robots' launch options), opened at the
 * start address with the chosen certificate, recording with Playwright's own recorder, so the
 * selectors are the ones its generator writes and the player replays with the same engine. The user
 * clicks and types in that window; the screen polls the steps (GetMacroRecording) and stops it
 * (StopMacroRecording), which closes the browser and answers the macro draft.
 *
 * Passwords: a fill arrives with the field's text; the page is asked for the field's type at once and a
 * password field's text stays in this process's memory only until the stop, when it is sealed on this
 * machine (secrets.ts) under the reference the step holds. Until the type is known, the live list
 * shows the fill as a secret, so a password is never shown even for a moment.
 *
 * Tests drive it: AUTOASESOR_RECORDER_HEADLESS=1 launches it headless, AUTOASESOR_RECORDER_CDP_PORT
 * opens Chromium's debugging port so a test can connectOverCDP and click like the user.
 * One recording at a time per process.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { MacroDefinition, MacroStep } from '#shared/macros/definition.ts';
import { browserLaunchOptions } from '../robots/sdk/browser.ts';
import { recordingToMacro, recordingToSteps, FAKEPATH, type RecordedAction } from './recording-to-steps.ts';
import { newSecretRef, type MacroSecretStore } from './secrets.ts';

export interface RecordingOptions {
  startUrl: string;
  /** The chosen certificate's PKCS#12 (CertificateSource.clientCertificate), presented to the start's origin. */
  certificate?: { pfx: Buffer; passphrase: string };
  chromiumPath: string | null;
  env: NodeJS.ProcessEnv;
  secrets: MacroSecretStore;
  /** Accept the site's HTTPS certificate whatever it is (test sites). */
  ignoreHTTPSErrors?: boolean;
  now?: () => Date;
}

/** What the recorder's callbacks hand over (Playwright 1.65's jsonl action data). */
interface RecorderSink {
  actionAdded?(page: Page, data: RecordedAction, code: string): void;
  actionUpdated?(page: Page, data: RecordedAction, code: string): void;
  signalAdded?(page: Page, data: { name: string }, code: string): void;
}

/**
 * Playwright's own recorder on a context. It is private API (what `npx playwright codegen` uses), pinned
 * by recorder.test.ts for playwright-core 1.65.1: trusted input only, `internal:role=…` selectors, a
 * fill's growing text through actionUpdated, a download as the signal { name: 'download' }, a file
 * input as a fill of 'C:\\fakepath\\<name>'.
 */
export async function startPlaywrightRecorder(context: BrowserContext, sink: RecorderSink): Promise<void> {
  const recording = context as unknown as { _startRecording?(params: object, sink: RecorderSink): Promise<void> };
  if (typeof recording._startRecording !== 'function') throw new Error('Esta versión del navegador del robot no permite grabar');
  await recording._startRecording({ language: 'jsonl', mode: 'recording' }, sink);
}

interface Entry {
  action: RecordedAction;
  /** A fill's password text, until the stop seals it. */
  password?: string;
  /** The fill's field type check; until it answers the fill shows as a secret. */
  typeKnown: boolean;
}

export class MacroRecording {
  readonly id = randomUUID();
  private readonly entries: Entry[] = [];
  private readonly checks: Promise<void>[] = [];
  private closed = false;
  private stopped: Promise<MacroDefinition> | null = null;

  constructor(private readonly browser: Browser, private readonly options: RecordingOptions, private readonly startedAt: Date) {
    browser.on('disconnected', () => (this.closed = true));
  }

  /** False once the user has closed the browser (or the recording was stopped). */
  get open(): boolean {
    return !this.closed && this.stopped === null;
  }

  /** Called by Playwright for every new action. */
  added(page: Page, data: RecordedAction): void {
    const action = recordedFields(data);
    const entry: Entry = { action, typeKnown: action.name !== 'fill' };
    if (action.name === 'select') this.checks.push(this.readOptionLabels(page, entry));
    if (action.name === 'fill' && !FAKEPATH.test(action.text ?? '')) {
      // Until the field's type is known, the text is held apart and the step shows as a secret.
      entry.password = action.text ?? '';
      action.secretRef = newSecretRef();
      delete action.text;
      this.checks.push(this.checkPassword(page, entry));
    } else {
      entry.typeKnown = true;
    }
    this.entries.push(entry);
  }

  /** Called by Playwright when the last action grows (a fill's text, typed a key at a time). */
  updated(data: RecordedAction): void {
    const entry = this.entries.at(-1);
    if (!entry || entry.action.name !== data.name || entry.action.selector !== data.selector) return;
    if (data.name === 'fill' && entry.action.secretRef !== undefined) {
      entry.password = data.text ?? '';
      return;
    }
    entry.action = { ...entry.action, ...recordedFields(data) };
  }

  /** A download: it belongs to the click just before it. */
  signal(data: { name: string }): void {
    const last = this.entries.at(-1);
    if (data.name === 'download' && last && last.action.name === 'click') last.action.download = true;
  }

  /** A select's chosen options by the text the user saw ('Temporal', not '401'); the value stays if the page has moved on. */
  private async readOptionLabels(page: Page, entry: Entry): Promise<void> {
    const values = entry.action.options ?? [];
    try {
      const labels = await page.locator(entry.action.selector ?? 'select').first().evaluate(
        (element, wanted) => wanted.map((value) => [...((element as unknown as { options?: Iterable<{ value: string; label: string }> }).options ?? [])].find((option) => option.value === value)?.label.trim() ?? value),
        values,
        { timeout: 2_000 },
      );
      entry.action = { ...entry.action, optionLabels: labels };
    } catch {
      // Keep the values: the player falls back to them.
    }
  }

  private async checkPassword(page: Page, entry: Entry): Promise<void> {
    let password = true;
    try {
      const type = await page.locator(entry.action.selector ?? 'body').first().evaluate((element) => String((element as unknown as { type?: string }).type ?? ''), undefined, { timeout: 2_000 });
      password = type.toLowerCase() === 'password';
    } catch {
      // The page has gone on (a form sent with Enter): keep it a secret rather than risk a password in clear.
    }
    if (!password) {
      entry.action = { ...entry.action, text: entry.password ?? '' };
      delete entry.action.secretRef;
      delete entry.password;
    }
    entry.typeKnown = true;
  }

  /** The steps so far (the screen's live list). */
  steps(): MacroStep[] {
    return recordingToSteps(this.actions(), this.options.startUrl).steps;
  }

  private actions(): RecordedAction[] {
    return this.entries.map((entry) => entry.action);
  }

  /** Ends the recording: the browser closes, passwords are sealed on this machine, the draft comes back. */
  stop(): Promise<MacroDefinition> {
    this.stopped ??= (async () => {
      await Promise.allSettled(this.checks);
      await this.browser.close().catch(() => undefined);
      this.closed = true;
      // Only the passwords of fills that survive the merge into steps are sealed, under the ref the step holds.
      const macro = recordingToMacro(this.actions(), { startUrl: this.options.startUrl, withCertificate: this.options.certificate !== undefined, at: this.startedAt });
      const used = new Set<string>();
      for (const step of macro.steps) if (step.type === 'fill' && step.value.kind === 'secret') used.add(step.value.ref);
      for (const entry of this.entries) {
        const ref = entry.action.secretRef;
        if (ref !== undefined && used.has(ref)) await this.options.secrets.save(entry.password ?? '', ref);
        delete entry.password;
      }
      return macro;
    })();
    return this.stopped;
  }
}

/** The fields the steps are made of (the recorder also sends an ARIA snapshot of the page per action, not kept). */
function recordedFields(data: RecordedAction): RecordedAction {
  const { name, selector, url, text, key, modifiers, options, clickCount } = data;
  return Object.fromEntries(Object.entries({ name, selector, url, text, key, modifiers, options, clickCount }).filter(([, value]) => value !== undefined)) as unknown as RecordedAction;
}

let current: MacroRecording | null = null;

/** The recording of that id, if it is this process's current one. */
export function recordingOf(id: string): MacroRecording | null {
  return current?.id === id ? current : null;
}

/** Stops and forgets the current recording (tests, app exit). */
export async function closeRecording(): Promise<void> {
  const recording = current;
  current = null;
  await recording?.stop().catch(() => undefined);
}

function originOf(url: string): string | null {
  return URL.canParse(url) && url.startsWith('https://') ? new URL(url).origin : null;
}

/** Launches the recording browser at the start address. Refuses while another recording is open. */
export async function startRecording(options: RecordingOptions): Promise<MacroRecording> {
  if (current?.open) throw new RecordingBusy();
  if (current) await closeRecording();
  const { chromium } = await import('playwright-core');
  const launch = browserLaunchOptions(process.platform, options.chromiumPath, options.env);
  const port = options.env.AUTOASESOR_RECORDER_CDP_PORT;
  const browser = await chromium.launch({
    ...launch,
    headless: options.env.AUTOASESOR_RECORDER_HEADLESS === '1',
    args: [...(launch.args ?? []), ...(port ? [`--remote-debugging-port=${Number(port)}`] : [])],
  });
  const recording = new MacroRecording(browser, options, (options.now ?? (() => new Date()))());
  current = recording;
  try {
    const origin = originOf(options.startUrl);
    const contextOptions: BrowserContextOptions = {
      acceptDownloads: true,
      ignoreHTTPSErrors: options.ignoreHTTPSErrors === true,
      ...(options.certificate && origin !== null && { clientCertificates: [{ origin, pfx: options.certificate.pfx, passphrase: options.certificate.passphrase }] }),
    };
    const context = await browser.newContext(contextOptions);
    await startPlaywrightRecorder(context, {
      actionAdded: (page, data) => recording.added(page, data),
      actionUpdated: (_page, data) => recording.updated(data),
      signalAdded: (_page, data) => recording.signal(data),
    });
    const page = await context.newPage();
    await page.goto(options.startUrl, { timeout: 60_000 });
  } catch (error) {
    await closeRecording();
    throw error;
  } finally {
    options.certificate?.pfx.fill(0);
  }
  return recording;
}

export class RecordingBusy extends Error {
  constructor() {
    super('Ya hay una grabación abierta en este equipo: termínala antes de empezar otra.');
  }
}
