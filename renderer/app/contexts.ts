import { createContext } from 'react';
import { noBridge } from '../bridge/client.ts';
import type { BridgeClient } from '../bridge/client.ts';
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
  /** Device or store it comes from, shown under the name. */
  detail?: string;
}

export interface CertificatePromptOptions {
  title: string;
  certificates: readonly CertificateChoice[];
  confirmLabel?: string;
}

/** Both variants resolve to the answer, or null when the user cancels. */
export interface PromptApi {
  text(options: TextPromptOptions): Promise<string | null>;
  certificate(options: CertificatePromptOptions): Promise<CertificateChoice | null>;
}

const closedPrompt: PromptApi = {
  text: async () => null,
  certificate: async () => null,
};

export const PromptContext = createContext<PromptApi>(closedPrompt);
