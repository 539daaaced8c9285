import { IMAGE_DATA_URL, MAX_IMAGE_DATA_URL } from '#shared/documents/blocks.ts';

/** An image block's file: PNG or JPEG, at most 140 KB, read as a data URL the template stores. */
export const MAX_IMAGE_BYTES = 140 * 1024;

export type ImageProblem = 'type' | 'size' | 'unreadable';

/** What is wrong with a chosen file before reading it, or null. */
export function imageFileProblem(file: Pick<File, 'type' | 'size'>): ImageProblem | null {
  if (file.type !== 'image/png' && file.type !== 'image/jpeg') return 'type';
  return file.size > MAX_IMAGE_BYTES ? 'size' : null;
}

/** The file as a data URL the server accepts, or the problem with it. */
export async function readImageFile(file: File): Promise<{ dataUrl: string } | { problem: ImageProblem }> {
  const problem = imageFileProblem(file);
  if (problem) return { problem };
  const dataUrl = await new Promise<string | null>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null);
    reader.onerror = () => resolve(null);
    reader.readAsDataURL(file);
  });
  if (dataUrl === null || !IMAGE_DATA_URL.test(dataUrl)) return { problem: 'unreadable' };
  return dataUrl.length > MAX_IMAGE_DATA_URL ? { problem: 'size' } : { dataUrl };
}
