import type { ScrapeCandidateResult } from '#shared/bridge/contract.ts';
import type { PromptApi } from '../app/contexts.ts';
import type { BridgeClient } from '../bridge/client.ts';

/*
 * What the recorder and the scraper (issue 41) share around their desktop commands (StartMacroRecording,
 * GetMacroRecording, StopMacroRecording, PreviewScrape in shared/bridge/contract.ts): the page's
 * certificate, picked from this PC's as the launcher's Certificate inputs list them.
 */

/** One table or repeated block PreviewScrape found, with its first rows. */
export type ScrapeCandidate = ScrapeCandidateResult;

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
