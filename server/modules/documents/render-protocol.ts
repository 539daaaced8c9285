import type { TemplateContent } from '#shared/documents/blocks.ts';

/**
 * Parent -> child, over IPC with the 'advanced' serialization (the signature and the files travel as
 * bytes): one document to render, the template as saved, the values and the moment to fill it with
 * (fillTemplate runs in the child too). A rendering process takes one job at a time, and several in its life.
 */
export interface RenderJob {
  type: 'render';
  /** Answers carry it back. */
  jobId: number;
  title: string;
  content: TemplateContent;
  values: Record<string, string>;
  /** ISO time the stamps ([[DATESTAMP]]…) show. */
  now: string;
  signaturePng: Uint8Array | null;
}

/** Child -> parent: 'ready' once its libraries are loaded and its code warmed on a sample document. */
export type RenderMessage = { type: 'ready' } | { type: 'done'; jobId: number; pdf: Uint8Array; docx: Uint8Array } | { type: 'failed'; jobId: number; reason: string };
