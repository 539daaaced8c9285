import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { macros } from '../../i18n/es-macros.ts';
import { PageHeader } from '../../ui/index.ts';
import { MacroEditor } from './MacroEditor.tsx';
import { MacroList } from './MacroList.tsx';
import type { MacroScope } from './MacroList.tsx';
import '../../ui/robot-tools.css';
import './smartbuilder.css';

const text = macros.smartbuilder;
const SCOPES: readonly MacroScope[] = ['all', 'own', 'shared'];
/** ?robot= for the macro open in the editor; this value opens a blank one. */
export const NEW_ROBOT = 'nuevo';

/**
 * /smartbuilder (issue 41 §2, web, paid plans): the firm's macros, and the editor of one. The view is in
 * the address (?robot=<id>|nuevo, ?q=, ?scope=) so a reload, the back button or the recorder's link
 * open the same place.
 */
export default function SmartBuilderPage() {
  const [params, setParams] = useSearchParams();
  const robot = params.get('robot') || null;
  const q = params.get('q') ?? '';
  const scopeParam = params.get('scope');
  const scope = (SCOPES as readonly string[]).includes(scopeParam ?? '') ? (scopeParam as MacroScope) : 'all';

  const change = useCallback(
    (partial: { robot?: string | null; q?: string; scope?: MacroScope }, replace = false) =>
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        const set = (key: string, value: string | null | undefined, fallback = '') => {
          if (value === undefined) return;
          if (value === null || value === fallback) next.delete(key);
          else next.set(key, value);
        };
        set('robot', partial.robot);
        set('q', partial.q);
        set('scope', partial.scope, 'all');
        return next;
      }, { replace }),
    [setParams],
  );

  return (
    <main className="ui-page sb-page">
      <PageHeader title={text.title} subtitle={text.subtitle} />
      {robot === null ? (
        <MacroList q={q} scope={scope} onFilter={(filter) => change(filter, true)} onOpen={(id) => change({ robot: id })} onNew={() => change({ robot: NEW_ROBOT })} />
      ) : (
        <MacroEditor
          macroId={robot === NEW_ROBOT ? null : robot}
          onClose={() => change({ robot: null })}
          onOpen={(id) => change({ robot: id }, robot === NEW_ROBOT)}
        />
      )}
    </main>
  );
}
