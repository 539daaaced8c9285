import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES, imageFileProblem, readImageFile } from './imageFile.ts';

// A 1×1 PNG.
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (char) => char.charCodeAt(0));

describe('image block files', () => {
  it('takes PNG and JPEG up to 140 KB only', () => {
    expect(imageFileProblem({ type: 'image/png', size: MAX_IMAGE_BYTES })).toBeNull();
    expect(imageFileProblem({ type: 'image/jpeg', size: 10 })).toBeNull();
    expect(imageFileProblem({ type: 'image/png', size: MAX_IMAGE_BYTES + 1 })).toBe('size');
    expect(imageFileProblem({ type: 'image/gif', size: 10 })).toBe('type');
    expect(imageFileProblem({ type: 'image/svg+xml', size: 10 })).toBe('type');
  });

  it('reads a PNG as the data URL the template stores, and refuses a file that is not one', async () => {
    const read = await readImageFile(new File([PNG], 'logo.png', { type: 'image/png' }));
    expect('dataUrl' in read && read.dataUrl.startsWith('data:image/png;base64,iVBOR')).toBe(true);
    expect(await readImageFile(new File(['GIF89a'], 'x.gif', { type: 'image/gif' }))).toEqual({ problem: 'type' });
    expect(await readImageFile(new File([new Uint8Array(MAX_IMAGE_BYTES + 1)], 'big.png', { type: 'image/png' }))).toEqual({ problem: 'size' });
  });
});
