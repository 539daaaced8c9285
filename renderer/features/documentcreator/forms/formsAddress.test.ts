/** The forms tab in the document creator's address: the new-answer mail's '?form=<id>' opens it, and leaving it closes the form. */
import { describe, expect, it } from 'vitest';
import { readView, writeView } from '../view.ts';

describe("the forms tab's address", () => {
  it("opens the forms tab for '?form=<id>' and '?tab=forms', and the tab in the address wins", () => {
    expect(readView(new URLSearchParams('form=f1')).tab).toBe('formularios');
    expect(readView(new URLSearchParams('tab=forms&form=f1')).tab).toBe('formularios');
    expect(readView(new URLSearchParams('tab=documentos&form=f1')).tab).toBe('documentos');
    expect(readView(new URLSearchParams('')).tab).toBe('plantillas');
  });

  it('drops the open form when another tab is chosen, so the tab does not come back', () => {
    const next = writeView(new URLSearchParams('tab=formularios&form=f1'), { tab: 'plantillas' });
    expect(next.toString()).toBe('');
    expect(readView(next).tab).toBe('plantillas');
    expect(writeView(new URLSearchParams('tab=formularios&form=f1'), { tab: 'formularios' }).get('form')).toBe('f1');
  });
});
