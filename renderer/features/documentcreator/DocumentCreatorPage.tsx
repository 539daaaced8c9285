import { Suspense, lazy, useCallback, useRef, useState } from 'react';
import type { ComponentType } from 'react';
import { useSearchParams } from 'react-router-dom';
import { documents as text } from '../../i18n/es-documents.ts';
import { PageHeader, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { DocumentsTab } from './DocumentsTab.tsx';
import { TemplatesTab } from './TemplatesTab.tsx';
import { CREATOR_TABS, readView, writeView } from './view.ts';
import type { CreatorTab, CreatorView } from './view.ts';
import './documentcreator.css';

// The Formularios tab is the online forms' own (./forms/FormsTab.tsx, default export), loaded only
// when it is opened. Found through a glob so this screen builds whether or not that folder is there yet.
const formsModules = import.meta.glob<{ default: ComponentType }>('./forms/FormsTab.tsx');
const loadForms = formsModules['./forms/FormsTab.tsx'];
const FormsTab = loadForms ? lazy(loadForms) : null;

const TABS = CREATOR_TABS.map((value) => ({ value, label: text.tabs[value] }));

/**
 * /documentcreator (issue 40 §1, §3): three tabs in the address (?tab=) — Plantillas (categories,
 * templates, the editor with its live preview, sharing), Documentos (the generated PDF and Word
 * files) and Formularios (online forms).
 */
export default function DocumentCreatorPage() {
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const dirty = useRef(false);
  const [pendingTab, setPendingTab] = useState<CreatorTab | null>(null);

  const change = useCallback(
    (partial: Partial<CreatorView>, options: { replace?: boolean } = {}) => setParams((previous) => writeView(previous, partial), { replace: options.replace ?? false }),
    [setParams],
  );
  const onDirtyChange = useCallback((value: boolean) => {
    dirty.current = value;
  }, []);
  const goToTab = (tab: CreatorTab) => {
    if (tab === view.tab) return;
    if (dirty.current) setPendingTab(tab);
    else change({ tab });
  };

  return (
    <main className="ui-page dc-page">
      <PageHeader title={text.title} subtitle={text.subtitle} />
      <Tabs label={text.tabsLabel} tabs={TABS} value={view.tab} onChange={goToTab}>
        {view.tab === 'plantillas' ? (
          <TemplatesTab view={view} change={change} onGenerated={() => change({ tab: 'documentos', template: null, dq: '', dtemplate: null })} onDirtyChange={onDirtyChange} />
        ) : view.tab === 'documentos' ? (
          <DocumentsTab view={view} change={change} />
        ) : FormsTab ? (
          <Suspense fallback={<p role="status"><Spinner size="small" decorative /> {text.formsLoading}</p>}>
            <FormsTab />
          </Suspense>
        ) : (
          <p className="ui-muted">{text.formsMissing}</p>
        )}
      </Tabs>
      <ConfirmDialog
        open={pendingTab !== null}
        title={text.editor.unsavedTitle}
        text={text.editor.unsavedText}
        confirmLabel={text.editor.unsavedConfirm}
        onCancel={() => setPendingTab(null)}
        onConfirm={() => {
          const tab = pendingTab;
          setPendingTab(null);
          dirty.current = false;
          if (tab) change({ tab });
        }}
      />
    </main>
  );
}
