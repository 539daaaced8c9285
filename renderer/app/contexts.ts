import { createContext } from 'react';
import { noBridge } from '../bridge/detect.ts';
import type { BridgeClient } from '../bridge/client.ts';
import type { CertificateItemData } from '../ui/CertificateItem.tsx';
import { embedded } from './env.ts';

export const BridgeContext = createContext<BridgeClient>(noBridge);
export const EmbeddedContext = createContext<boolean>(embedded);

export interface TextPromptOptions {
  title: string;
  label: string;
  initialValue?: string;
  confirmLabel?: string;
}

export interface CertificateChoice {
  id: string;
  name: string;
  /** Device or store it comes from, shown under the name (rows without `certificate`). */
  detail?: string;
  /** The certificate's public facts: with them the row shows NIF, kind, issuer, where it lives and expiry. */
  certificate?: CertificateItemData;
  /** The machine that holds it (web mode): rows are grouped under it, and searched by it with the name. */
  machineName?: string;
}

export interface CertificatePromptOptions {
  title: string;
  certificates: readonly CertificateChoice[];
  confirmLabel?: string;
  /** A line above the list: where the robot will run, or what could not be read. */
  note?: string;
  /** Shown instead of 'No tienes certificados' when the list is empty. */
  emptyText?: string;
  /** Ids already chosen when the picker opens. */
  selectedIds?: readonly string[];
}

/** The variants resolve to the answer, or null when the user cancels. */
export interface PromptApi {
  text(options: TextPromptOptions): Promise<string | null>;
  /** Single select (radios): the chosen certificate. */
  certificate(options: CertificatePromptOptions): Promise<CertificateChoice | null>;
  /** The multiple mode (checkboxes): the chosen certificates, at least one. */
  certificates(options: CertificatePromptOptions): Promise<CertificateChoice[] | null>;
}

const closedPrompt: PromptApi = {
  text: async () => null,
  certificate: async () => null,
  certificates: async () => null,
};

export const PromptContext = createContext<PromptApi>(closedPrompt);
