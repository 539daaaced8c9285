import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { parseMacro } from '#shared/macros/definition.ts';
import type { MacroDefinition } from '#shared/macros/definition.ts';
import { formatMadridDateTime } from '#shared/time/madrid.ts';
import {
  macroExportUrl, problemsOf, useCloneMacroMutation, useCreateMacroMutation, useDeleteMacroMutation, useMacroQuery, useSaveMacroMutation,
} from '../../api/macros.ts';
import type { MacroDetail } from '../../api/macros.ts';
import { useToast } from '../../app/hooks.ts';
import { macros } from '../../i18n/es-macros.ts';
import { Button, IconArrowLeft, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ShareDialog } from '../../ui/ShareDialog.tsx';
import {
  addStep, blankMacro, convertToInput, duplicateStep, moveStep, newStep, placeProblems, removeStep, stepRows, updateStep, wrapInForEachRow,
} from './macroModel.ts';
import type { MacroProblem } from './macroModel.ts';
import { GeneralSettings, InputsEditor, Section } from './MacroSettings.tsx';
import { StepList } from './StepList.tsx';
import type { StepListActions } from './StepList.tsx';

const text = macros.smartbuilder;

export interface MacroEditorProps {
  /** A macro's id, or null for 'Nuevo robot'. */
  macroId: string | null;
  onClose: () => void;
  /** A macro was created (saved new, or duplicated): open it. */
  onOpen: (id: string) => void;
}

/** The editor of one macro, once it is loaded (or blank for a new one). */
export function MacroEditor(props: MacroEditorProps) {
  const detail = useMacroQuery(props.macroId ?? '', { skip: props.macroId === null });
  if (props.macroId !== null) {
    if (detail.isError) {
      return (
        <div className="sb-state">
          <EditorHeader title={text.editor.loading} onBack={props.onClose} />
          <p role="alert">{text.editor.loadFailed}</p>
          <Button variant="secondary" onClick={() => void detail.refetch()}>{macros.retry}</Button>
        </div>
      );
    }
    if (detail.data === undefined || detail.data.id !== props.macroId) {
      return <p className="sb-state" role="status"><Spinner size="small" decorative /> {text.editor.loading}</p>;
    }
  }
  return <EditorForm key={`${detail.data?.id ?? 'new'}:${detail.data?.version ?? 0}`} {...props} detail={props.macroId === null ? undefined : detail.data} />;
}

function EditorHeader({ title, onBack, actions }: { title: string; onBack: () => void; actions?: ReactNode }) {
  return (
    <div className="sb-editor__head">
      <button type="button" className="ui-icon-button" onClick={onBack} aria-label={text.editor.back}>
        <IconArrowLeft size={20} />
      </button>
      <h2 className="sb-editor__title">{title}</h2>
      {actions}
    </div>
  );
}

function EditorForm({ detail, onClose, onOpen }: MacroEditorProps & { detail: MacroDetail | undefined }) {
  const toast = useToast();
  const ids = useId();
  const start = useMemo(() => detail?.definition ?? blankMacro(), [detail]);
  const [macro, setMacro] = useState<MacroDefinition>(start);
  const [saved, setSaved] = useState(() => JSON.stringify(start));
  const [note, setNote] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [problems, setProblems] = useState<MacroProblem[]>([]);
  const [notice, setNotice] = useState('');
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [createMacro, creating] = useCreateMacroMutation();
  const [saveMacro, saving] = useSaveMacroMutation();
  const [cloneMacro, cloning] = useCloneMacroMutation();
  const [deleteMacro, deleting] = useDeleteMacroMutation();
  const problemsRef = useRef<HTMLDivElement>(null);

  const readOnly = detail?.access === 'view';
  const dirty = !readOnly && JSON.stringify(macro) !== saved;
  const rows = useMemo(() => stepRows(macro.steps), [macro.steps]);
  const numbers = useMemo(() => new Map(rows.map((row) => [row.step.id, row.number])), [rows]);
  const stepProblems = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const problem of problems) if (problem.stepId) map.set(problem.stepId, [...(map.get(problem.stepId) ?? []), problem.detail ?? problem.message]);
    return map;
  }, [problems]);

  // Leaving the page (reload, closing the tab) with changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const change = (next: MacroDefinition) => {
    setMacro(next);
    setNotice('');
  };
  const setField = <K extends keyof MacroDefinition>(key: K, value: MacroDefinition[K]) => change({ ...macro, [key]: value });

  const actions: StepListActions = {
    change: (step) => change({ ...macro, steps: updateStep(macro.steps, step.id, () => step) }),
    move: (id, by) => {
      const steps = moveStep(macro.steps, id, by);
      change({ ...macro, steps });
      const number = stepRows(steps).find((row) => row.step.id === id)?.number;
      if (number !== undefined) setNotice(text.steps.moved(number));
    },
    duplicate: (id) => {
      const { steps, copyId } = duplicateStep(macro.steps, id);
      change({ ...macro, steps });
      setOpen(copyId);
    },
    remove: (id) => {
      change({ ...macro, steps: removeStep(macro.steps, id) });
      setSelected((current) => new Set([...current].filter((selectedId) => selectedId !== id)));
    },
    add: (place, type) => {
      const step = newStep(type, macro.startUrl === 'https://' ? '' : macro.startUrl);
      change({ ...macro, steps: addStep(macro.steps, place, step) });
      setOpen(step.id);
    },
    convert: (id, label, kind) => {
      change(convertToInput(macro, id, label, kind));
      setNotice(text.step.converted(label));
    },
  };

  const wrap = () => {
    const result = wrapInForEachRow(macro, [...selected], text.steps.wrapInputLabel);
    if (!result.ok) {
      setNotice(result.reason);
      return;
    }
    change(result.macro);
    setSelected(new Set());
    setOpen(result.loopId);
    setNotice(text.steps.wrapped(selected.size));
  };

  const goToProblem = (problem: MacroProblem) => {
    if (!problem.stepId) return;
    setOpen(problem.stepId);
    // The step's editor renders on the next frame; its first field takes the focus.
    window.setTimeout(() => {
      const item = document.querySelector<HTMLElement>(`[data-step="${problem.stepId}"] .sb-step__editor input, [data-step="${problem.stepId}"] .sb-step__editor select`);
      item?.focus();
    }, 0);
  };

  const save = async () => {
    const parsed = parseMacro(macro);
    if (!parsed.ok) {
      setProblems(placeProblems(macro, parsed.problems));
      window.setTimeout(() => problemsRef.current?.focus(), 0);
      return;
    }
    setProblems([]);
    try {
      if (!detail) {
        const created = await createMacro({ source: 'blank', definition: parsed.macro }).unwrap();
        setSaved(JSON.stringify(macro));
        toast.success(text.editor.created);
        onOpen(created.id);
      } else {
        const result = await saveMacro({ id: detail.id, definition: parsed.macro, ...(note.trim() && { note: note.trim() }) }).unwrap();
        setSaved(JSON.stringify(macro));
        setNote('');
        toast.success(text.editor.saved(result.version));
      }
    } catch (error) {
      setProblems(problemsOf(error, text.editor.saveFailed).map((message) => ({ message })));
      window.setTimeout(() => problemsRef.current?.focus(), 0);
    }
  };

  const duplicate = async () => {
    if (!detail) return;
    try {
      const copy = await cloneMacro(detail.id).unwrap();
      toast.success(text.list.duplicated);
      onOpen(copy.id);
    } catch (error) {
      toast.error(problemsOf(error, macros.failed)[0]!);
    }
  };

  const remove = async () => {
    if (!detail) return;
    try {
      await deleteMacro(detail.id).unwrap();
      toast.success(text.editor.removed);
      setConfirmRemove(false);
      onClose();
    } catch (error) {
      setConfirmRemove(false);
      toast.error(problemsOf(error, macros.failed)[0]!);
    }
  };

  const back = () => (dirty ? setConfirmLeave(true) : onClose());
  const busy = creating.isLoading || saving.isLoading;

  return (
    <div className="sb-editor">
      <EditorHeader title={detail ? text.editor.title(macro.name || detail.name) : text.editor.newTitle} onBack={back} />
      {readOnly && <p className="sb-notice" role="note">{text.editor.readOnly}</p>}

      <div className="sb-savebar" role="group" aria-label={text.editor.save}>
        {!readOnly && (
          <>
            {detail && (
              <label className="sb-field sb-field--grow" htmlFor={`${ids}-note`}>
                {text.editor.saveNote}
                <input id={`${ids}-note`} value={note} maxLength={200} onChange={(event) => setNote(event.target.value)} />
              </label>
            )}
            <Button onClick={() => void save()} loading={busy}>{text.editor.save}</Button>
          </>
        )}
        {detail && (
          <>
            <Link className="ui-button ui-button--secondary" to={`/launcher/${encodeURIComponent(detail.flowId)}`}>{text.editor.test}</Link>
            <a className="ui-button ui-button--secondary" href={macroExportUrl(detail.id)} download aria-label={text.editor.exportLabel(detail.name)}>{text.editor.export}</a>
            <Button variant="ghost" onClick={() => void duplicate()} loading={cloning.isLoading}>{text.editor.duplicate}</Button>
            {detail.access === 'owner' && <Button variant="ghost" onClick={() => setSharing(true)}>{text.editor.share}</Button>}
            {detail.access === 'owner' && <Button variant="ghost" className="sb-danger" onClick={() => setConfirmRemove(true)}>{text.editor.remove}</Button>}
          </>
        )}
      </div>
      {detail && <p className="ui-muted sb-small">{dirty ? text.editor.testUnsaved : text.editor.testHint}</p>}

      <div ref={problemsRef} tabIndex={-1} className="sb-problems-anchor">
        {problems.length > 0 && (
          <div className="sb-problems" role="alert" aria-labelledby={`${ids}-problems`}>
            <h3 id={`${ids}-problems`} className="sb-section-title">{text.editor.problemsTitle}</h3>
            <ul>
              {problems.map((problem, index) => (
                <li key={index}>
                  {problem.message}
                  {problem.stepNumber !== undefined && (
                    <>
                      {' '}
                      <button type="button" className="ui-link-button" onClick={() => goToProblem(problem)}>{text.editor.goToStep(problem.stepNumber)}</button>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <p className="ui-visually-hidden" role="status" aria-live="polite">{notice}</p>

      <fieldset className="sb-plain-fieldset" disabled={readOnly}>
        <legend className="ui-visually-hidden">{text.editor.sections.general}</legend>
        <GeneralSettings macro={macro} onChange={change} />

        <Section title={text.editor.sections.inputs}>
          <InputsEditor inputs={macro.inputs} onChange={(inputs) => setField('inputs', inputs)} readOnly={readOnly} />
        </Section>
      </fieldset>

      <Section title={text.editor.sections.steps}>
        {!readOnly && (
          <div className="sb-wrap">
            <p className="ui-muted sb-small" id={`${ids}-wrap-help`}>{text.steps.wrapHelp}</p>
            <Button variant="secondary" onClick={wrap} aria-describedby={`${ids}-wrap-help`}>{text.steps.wrap}</Button>
          </div>
        )}
        <StepList
          steps={macro.steps}
          numbers={numbers}
          inputs={macro.inputs}
          open={open}
          setOpen={setOpen}
          selected={selected}
          toggleSelected={(id) => setSelected((current) => {
            const next = new Set(current);
            if (next.has(id)) next.delete(id);
            else next.add(id);
            return next;
          })}
          problems={stepProblems}
          actions={actions}
          readOnly={readOnly}
        />
      </Section>

      {detail && (
        <Section title={text.editor.sections.versions}>
          {detail.versions.length === 0 ? (
            <p className="ui-muted">{text.editor.versionsEmpty}</p>
          ) : (
            <ol className="sb-versions" reversed>
              {[...detail.versions].sort((a, b) => b.version - a.version).map((version) => (
                <li key={version.version}>
                  <span>{text.editor.versionLine(version.version, formatMadridDateTime(new Date(version.createdAt)), version.createdBy)}</span>
                  {version.version === detail.version && <span className="ui-chip sb-chip">{text.editor.currentVersion}</span>}
                  {version.note && <span className="ui-muted sb-small sb-block">{version.note}</span>}
                </li>
              ))}
            </ol>
          )}
        </Section>
      )}

      <ConfirmDialog
        open={confirmLeave}
        title={text.editor.unsavedTitle}
        text={text.editor.unsavedText}
        confirmLabel={text.editor.unsavedConfirm}
        onCancel={() => setConfirmLeave(false)}
        onConfirm={() => {
          setConfirmLeave(false);
          onClose();
        }}
      />
      {detail && <ShareDialog kind="macro" id={detail.id} name={detail.name} open={sharing} onClose={() => setSharing(false)} />}
      <ConfirmDialog
        open={confirmRemove}
        title={text.editor.removeTitle}
        text={text.editor.removeText(detail?.name ?? '')}
        confirmLabel={text.editor.remove}
        busy={deleting.isLoading}
        onCancel={() => setConfirmRemove(false)}
        onConfirm={() => void remove()}
      />
    </div>
  );
}
