import type { UploadColumns } from '#shared/api/flows.ts';

/** Reading a large upload's columns, which would hold the server's event loop for seconds. */
export interface ColumnsJob {
  kind: 'columns';
  name: string;
  data: Uint8Array;
}

export type WorkerMessage = { type: 'columns'; columns: UploadColumns | null };
