import type { MacroDefinition, MacroListField, MacroStep } from '#shared/macros/definition.ts';
import type { BridgeEnvelope } from '#shared/bridge/envelope.ts';
import type { PromptApi } from '../app/contexts.ts';
import type { BridgeClient } from '../bridge/client.ts';

/*
 * The recorder's and the scraper's desktop commands (issue 41), as the bridge helper announced them for
 * shared/bridge/contract.ts. They go through the same bridge client as every other command; this file
 * only names their arguments and results, so the screens read the same once the contract has them.
 */

export interface ScrapeCandidate {
  kind: 'table' | 'list';
  /** The Playwright selector of the table, or of one repeated item of the list. */
  target: string;
  /** A list's columns: what each item holds and where (absent for a table). */
  fields?: MacroListField[];
  header: string[];
  rows: string[][];
  total: number;
}

interface MacroBridgeCommands {
  StartMacroRecording: { args: { startUrl: string; certificateFingerprint?: string }; result: { recordingId: string } };
  GetMacroRecording: { args: { recordingId: string }; result: { steps: MacroStep[]; open: boolean } };
  StopMacroRecording: { args: { recordingId: string }; result: { macro: MacroDefinition } };
  PreviewScrape: { args: { url: string; certificateFingerprint?: string }; result: { candidates: ScrapeCandidate[] } };
}
export type MacroBridgeCommand = keyof MacroBridgeCommands;

type LooseInvoke = (command: string, args: unknown) => Promise<BridgeEnvelope<unknown>>;

/** Calls one of the macro commands on the bridge (UNAVAILABLE in the web app, like any command). */
export async function invokeMacroCommand<C extends MacroBridgeCommand>(
  bridge: BridgeClient,
  command: C,
  args: MacroBridgeCommands[C]['args'],
): Promise<BridgeEnvelope<MacroBridgeCommands[C]['result']>> {
  const invoke = bridge.invoke.bind(bridge) as unknown as LooseInvoke;
  return (await invoke(command, args)) as BridgeEnvelope<MacroBridgeCommands[C]['result']>;
}

/** The certificate the recorder or the scraper presents to the page: one of this PC's, by fingerprint. */
export interface PageCertificate {
  fingerprint: string;
  commonName: string;
}

/**
 * Lets the user pick one of this PC's certificates (its store and .p12 folder, as the launcher's
 * Certificate inputs list them). Answers the choice, null when cancelled, or a Spanish message.
 */
export async function pickLocalCertificate(bridge: BridgeClient, prompt: PromptApi, title: string, current: PageCertificate | null): Promise<{ ok: true; certificate: PageCertificate | null } | { ok: false; message: string }> {
  const result = await bridge.invoke('GetCertificatesList', {});
  if (!result.ok) return { ok: false, message: result.error.message };
  const { certificates, problems } = result.data;
  const choices = certificates.map((certificate, index) => ({ id: `${index}:${certificate.fingerprint}`, name: certificate.commonName, certificate }));
  const selected = choices.find((choice) => choice.certificate.fingerprint === current?.fingerprint);
  const answer = await prompt.certificate({
    title,
    certificates: choices,
    note: problems.length > 0 ? problems.map((problem) => problem.message).join(' ') : undefined,
    selectedIds: selected ? [selected.id] : [],
  });
  const picked = answer ? choices.find((choice) => choice.id === answer.id) : undefined;
  return { ok: true, certificate: picked ? { fingerprint: picked.certificate.fingerprint, commonName: picked.certificate.commonName } : current };
}
