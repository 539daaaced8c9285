import type { TemplateScope } from '../../api/documents.ts';

/**
 * The document creator's view, all in the address (so a reload or a shared link opens the same place):
 * ?tab=, the template filters (category, q, scope), the template open in the editor (an id or 'nueva'),
 * and the documents' filters (dq, dtemplate, page). Other parameters (the forms tab's) are left alone.
 */
export const CREATOR_TABS = ['plantillas', 'documentos', 'formularios'] as const;
export type CreatorTab = (typeof CREATOR_TABS)[number];

export interface CreatorView {
  tab: CreatorTab;
  category: string | null;
  q: string;
  scope: TemplateScope;
  /** The template in the editor: its id, 'nueva' for a new one, or null for the list. */
  template: string | null;
  dq: string;
  dtemplate: string | null;
  page: number;
}

const SCOPES: readonly TemplateScope[] = ['all', 'own', 'shared'];

export function readView(params: URLSearchParams): CreatorView {
  const tab = params.get('tab');
  const scope = params.get('scope');
  const page = Number(params.get('page'));
  return {
    // '?form=<id>' (the new-answer mail's link) and '?tab=forms' open the online forms' tab.
    tab: (CREATOR_TABS as readonly string[]).includes(tab ?? '') ? (tab as CreatorTab) : tab === 'forms' || params.has('form') ? 'formularios' : 'plantillas',
    category: params.get('category') || null,
    q: params.get('q') ?? '',
    scope: (SCOPES as readonly string[]).includes(scope ?? '') ? (scope as TemplateScope) : 'all',
    template: params.get('template') || null,
    dq: params.get('dq') ?? '',
    dtemplate: params.get('dtemplate') || null,
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The address with the view's changes: defaults leave their parameter out; a filter change goes back to page 1. */
export function writeView(previous: URLSearchParams, partial: Partial<CreatorView>): URLSearchParams {
  const next = new URLSearchParams(previous);
  const set = (key: string, value: string | null, fallback = '') => {
    if (value === null || value === fallback) next.delete(key);
    else next.set(key, value);
  };
  if (partial.tab !== undefined) set('tab', partial.tab, 'plantillas');
  // Leaving the forms' tab closes the form open there (its '?form=' would bring the tab back).
  if (partial.tab !== undefined && partial.tab !== 'formularios') next.delete('form');
  if (partial.category !== undefined) set('category', partial.category);
  if (partial.q !== undefined) set('q', partial.q);
  if (partial.scope !== undefined) set('scope', partial.scope, 'all');
  if (partial.template !== undefined) set('template', partial.template);
  if (partial.dq !== undefined || partial.dtemplate !== undefined) next.delete('page');
  if (partial.dq !== undefined) set('dq', partial.dq);
  if (partial.dtemplate !== undefined) set('dtemplate', partial.dtemplate);
  if (partial.page !== undefined) set('page', String(partial.page), '1');
  return next;
}
