import { useEffect, useId, useRef, useState } from 'react';
import type { Ref } from 'react';
import { MACRO_STEP_LABELS, MACRO_STEP_TYPES } from '#shared/macros/definition.ts';
import type { MacroInput, MacroInputKind, MacroStep, MacroStepType } from '#shared/macros/definition.ts';
import { macros } from '../../i18n/es-macros.ts';
import { Button } from '../../ui/index.ts';
import { describeStep, isContainer } from './macroModel.ts';
import type { StepPlace } from './macroModel.ts';
import { StepEditor } from './StepEditor.tsx';

const text = macros.smartbuilder.steps;

export interface StepListActions {
  change: (step: MacroStep) => void;
  move: (id: string, by: -1 | 1) => void;
  duplicate: (id: string) => void;
  remove: (id: string) => void;
  add: (place: StepPlace, type: MacroStepType) => void;
  convert: (id: string, label: string, kind: Extract<MacroInputKind, 'text' | 'date'>) => void;
}

export interface StepListProps {
  steps: readonly MacroStep[];
  numbers: ReadonlyMap<string, number>;
  inputs: readonly MacroInput[];
  open: string | null;
  setOpen: (id: string | null) => void;
  selected: ReadonlySet<string>;
  toggleSelected: (id: string) => void;
  problems: ReadonlyMap<string, string[]>;
  actions: StepListActions;
  readOnly: boolean;
}

/** 'Añadir paso': a step of any type at the end of one list (the macro's, or inside a loop or condition). */
function AddStep({ place, where, onAdd }: { place: StepPlace; where: string; onAdd: StepListActions['add'] }) {
  const id = useId();
  const [type, setType] = useState<MacroStepType>('click');
  return (
    <div className="sb-add" role="group" aria-label={text.addHere(where)}>
      <label className="sb-field" htmlFor={id}>
        {text.addType}
        <select id={id} value={type} onChange={(event) => setType(event.target.value as MacroStepType)}>
          {MACRO_STEP_TYPES.map((option) => <option key={option} value={option}>{MACRO_STEP_LABELS[option]}</option>)}
        </select>
      </label>
      <Button variant="secondary" onClick={() => onAdd(place, type)} aria-label={text.addHere(where)}>{text.add}</Button>
    </div>
  );
}

/** The steps as a list, containers with their own steps indented below them, each with its tools. */
export function StepList(props: StepListProps) {
  const moved = useRef<{ id: string; by: -1 | 1 } | null>(null);
  const root = useRef<HTMLOListElement>(null);

  // A moved step keeps the keyboard's focus on the button that moved it (or its twin at the list's end).
  useEffect(() => {
    const pending = moved.current;
    if (!pending || !root.current) return;
    moved.current = null;
    const button = (by: number) => root.current?.querySelector<HTMLButtonElement>(`[data-move="${pending.id}:${by}"]`);
    const target = button(pending.by);
    (target && !target.disabled ? target : button(-pending.by))?.focus();
  });

  const actions: StepListActions = {
    ...props.actions,
    move: (id, by) => {
      moved.current = { id, by };
      props.actions.move(id, by);
    },
  };
  return (
    <>
      <Steps {...props} actions={actions} place={{ parentId: null, branch: 'steps' }} listRef={root} label={text.listLabel} />
      {!props.readOnly && <AddStep place={{ parentId: null, branch: 'steps' }} where={text.atEnd} onAdd={props.actions.add} />}
    </>
  );
}

function Steps(props: StepListProps & { place: StepPlace; label: string; listRef?: Ref<HTMLOListElement> }) {
  const { steps, place, label, listRef } = props;
  if (steps.length === 0) return <p className="ui-muted sb-small sb-empty-branch">{place.parentId === null ? text.empty : text.emptyBranch}</p>;
  return (
    <ol className={`sb-steps${place.parentId === null ? '' : ' sb-steps--inner'}`} aria-label={label} ref={listRef}>
      {steps.map((step, index) => <StepItem key={step.id} {...props} step={step} first={index === 0} last={index === steps.length - 1} />)}
    </ol>
  );
}

function StepItem(props: StepListProps & { step: MacroStep; first: boolean; last: boolean }) {
  const { step, first, last, numbers, inputs, open, setOpen, selected, toggleSelected, problems, actions, readOnly } = props;
  const number = numbers.get(step.id) ?? 0;
  const isOpen = open === step.id;
  const stepProblems = problems.get(step.id) ?? [];
  const headingId = `sb-step-${step.id}`;
  return (
    <li className={`sb-step${stepProblems.length > 0 ? ' sb-step--invalid' : ''}`} aria-labelledby={headingId} data-step={step.id}>
      <div className="sb-step__head">
        {!readOnly && (
          <input type="checkbox" className="sb-step__select" checked={selected.has(step.id)} onChange={() => toggleSelected(step.id)} aria-label={text.select(number)} />
        )}
        <div className="sb-step__text">
          <span className="sb-step__title" id={headingId}>
            <span className="sb-step__number">{text.number(number)}</span> · {MACRO_STEP_LABELS[step.type]}
          </span>
          <span className="sb-step__summary">{describeStep(step, inputs)}</span>
          {step.note && <span className="ui-muted sb-small">{step.note}</span>}
        </div>
      </div>
      {stepProblems.length > 0 && (
        <ul className="sb-step__problems">
          {stepProblems.map((problem) => <li key={problem}>{problem}</li>)}
        </ul>
      )}
      <div className="sb-step__tools" role="group" aria-label={text.number(number)}>
        <Button variant="secondary" aria-expanded={isOpen} aria-label={isOpen ? text.closeLabel(number) : readOnly ? text.viewLabel(number) : text.editLabel(number)} onClick={() => setOpen(isOpen ? null : step.id)} data-edit={step.id}>
          {isOpen ? text.close : readOnly ? macros.smartbuilder.list.view : text.edit}
        </Button>
        {!readOnly && (
          <>
            <Button variant="ghost" aria-label={text.upLabel(number)} disabled={first} data-move={`${step.id}:-1`} onClick={() => actions.move(step.id, -1)}>{text.up}</Button>
            <Button variant="ghost" aria-label={text.downLabel(number)} disabled={last} data-move={`${step.id}:1`} onClick={() => actions.move(step.id, 1)}>{text.down}</Button>
            <Button variant="ghost" aria-label={text.duplicateLabel(number)} onClick={() => actions.duplicate(step.id)}>{text.duplicate}</Button>
            <Button variant="ghost" className="sb-danger" aria-label={text.removeLabel(number)} onClick={() => actions.remove(step.id)}>{text.remove}</Button>
          </>
        )}
      </div>
      {isOpen && (
        <fieldset className="sb-step__editor" disabled={readOnly}>
          <legend className="ui-visually-hidden">{text.editLabel(number)}</legend>
          <StepEditor step={step} inputs={inputs} onChange={actions.change} onConvert={(label, kind) => actions.convert(step.id, label, kind)} />
        </fieldset>
      )}
      {isContainer(step) && (
        <div className="sb-step__inner">
          {step.type === 'ifText' && <p className="sb-branch">{text.branchThen}</p>}
          <Steps {...props} steps={step.steps} place={{ parentId: step.id, branch: 'steps' }} label={text.inside(number)} />
          {!readOnly && <AddStep place={{ parentId: step.id, branch: 'steps' }} where={text.inside(number)} onAdd={actions.add} />}
          {step.type === 'ifText' && (
            <>
              <p className="sb-branch">{text.branchOtherwise}</p>
              <Steps {...props} steps={step.otherwise} place={{ parentId: step.id, branch: 'otherwise' }} label={text.otherwise(number)} />
              {!readOnly && <AddStep place={{ parentId: step.id, branch: 'otherwise' }} where={text.otherwise(number)} onAdd={actions.add} />}
            </>
          )}
        </div>
      )}
    </li>
  );
}
