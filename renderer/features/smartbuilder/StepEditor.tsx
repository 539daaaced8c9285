import { useId, useState } from 'react';
import type { MacroInput, MacroInputKind, MacroStep, MacroValue } from '#shared/macros/definition.ts';
import { macros } from '../../i18n/es-macros.ts';
import { Button } from '../../ui/index.ts';
import { LocatorFields } from './LocatorFields.tsx';
import { valueOf, withValue } from './macroModel.ts';

const text = macros.smartbuilder;

export interface StepEditorProps {
  step: MacroStep;
  inputs: readonly MacroInput[];
  onChange: (step: MacroStep) => void;
  /** 'Convertir en dato': the step's typed text becomes a new input of this label and kind. */
  onConvert: (label: string, kind: Extract<MacroInputKind, 'text' | 'date'>) => void;
}

function InputSelect({ label, value, inputs, kinds, onChange }: { label: string; value: string; inputs: readonly MacroInput[]; kinds: readonly MacroInputKind[]; onChange: (key: string) => void }) {
  const id = useId();
  const offered = inputs.filter((input) => kinds.includes(input.kind));
  return (
    <label className="sb-field" htmlFor={id}>
      {label}
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{text.step.inputNone}</option>
        {value !== '' && !offered.some((input) => input.key === value) && <option value={value}>{value}</option>}
        {offered.map((input) => <option key={input.key} value={input.key}>{input.label}</option>)}
      </select>
    </label>
  );
}

/** Where a value comes from: typed text (which can become an input), an input, a row's column, or a recorded password. */
function ValueField({ label, value, inputs, onChange, onConvert }: { label: string; value: MacroValue; inputs: readonly MacroInput[]; onChange: (value: MacroValue) => void; onConvert: StepEditorProps['onConvert'] }) {
  const id = useId();
  const [converting, setConverting] = useState(false);
  const [newLabel, setNewLabel] = useState('');
  const [newKind, setNewKind] = useState<'text' | 'date'>('text');
  const [missing, setMissing] = useState(false);
  const kinds: MacroValue['kind'][] = value.kind === 'secret' ? ['text', 'input', 'column', 'secret'] : ['text', 'input', 'column'];
  const switchTo = (kind: MacroValue['kind']) => {
    if (kind === value.kind) return;
    if (kind === 'text') onChange({ kind, text: '' });
    else if (kind === 'input') onChange({ kind, key: inputs.find((input) => input.kind === 'text' || input.kind === 'date')?.key ?? '' });
    else if (kind === 'column') onChange({ kind, column: '' });
  };
  const convert = () => {
    if (newLabel.trim() === '') {
      setMissing(true);
      return;
    }
    onConvert(newLabel.trim(), newKind);
    setConverting(false);
    setNewLabel('');
    setMissing(false);
  };
  return (
    <fieldset className="sb-value">
      <legend>{label}</legend>
      <label className="sb-field" htmlFor={`${id}-kind`}>
        {text.step.valueKind}
        <select id={`${id}-kind`} value={value.kind} onChange={(event) => switchTo(event.target.value as MacroValue['kind'])}>
          {kinds.map((kind) => <option key={kind} value={kind}>{text.step.valueKinds[kind]}</option>)}
        </select>
      </label>
      {value.kind === 'text' && (
        <>
          <label className="sb-field" htmlFor={`${id}-text`}>
            {text.step.valueText}
            <input id={`${id}-text`} value={value.text} onChange={(event) => onChange({ kind: 'text', text: event.target.value })} />
          </label>
          {!converting ? (
            <div>
              <Button variant="secondary" onClick={() => { setConverting(true); setNewLabel(''); }}>{text.step.convert}</Button>
            </div>
          ) : (
            <div className="sb-convert" role="group" aria-label={text.step.convertTitle}>
              <label className="sb-field sb-field--grow" htmlFor={`${id}-new-label`}>
                {text.step.convertLabel}
                <input
                  id={`${id}-new-label`}
                  value={newLabel}
                  autoFocus
                  aria-invalid={missing || undefined}
                  aria-describedby={missing ? `${id}-new-error` : undefined}
                  onChange={(event) => { setNewLabel(event.target.value); setMissing(false); }}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') {
                      event.preventDefault();
                      convert();
                    }
                  }}
                />
              </label>
              <label className="sb-field" htmlFor={`${id}-new-kind`}>
                {text.step.convertKind}
                <select id={`${id}-new-kind`} value={newKind} onChange={(event) => setNewKind(event.target.value as 'text' | 'date')}>
                  <option value="text">Texto</option>
                  <option value="date">Fecha</option>
                </select>
              </label>
              <div className="sb-actions">
                <Button onClick={convert}>{text.step.convertConfirm}</Button>
                <Button variant="ghost" onClick={() => setConverting(false)}>{macros.cancel}</Button>
              </div>
              <p className="sb-error" id={`${id}-new-error`} role={missing ? 'alert' : undefined}>{missing ? text.step.convertMissing : ''}</p>
            </div>
          )}
        </>
      )}
      {value.kind === 'input' && (
        <InputSelect label={text.step.valueInput} value={value.key} inputs={inputs} kinds={['text', 'date']} onChange={(key) => onChange({ kind: 'input', key })} />
      )}
      {value.kind === 'column' && (
        <label className="sb-field" htmlFor={`${id}-column`}>
          {text.step.valueColumn}
          <input id={`${id}-column`} value={value.column} onChange={(event) => onChange({ kind: 'column', column: event.target.value })} />
        </label>
      )}
      {value.kind === 'secret' && (
        <p className="sb-secret">
          <span>{text.steps.secret}</span>
          <span className="ui-muted sb-small">{text.steps.secretHelp}</span>
        </p>
      )}
    </fieldset>
  );
}

/** The fields of one step, by its type. */
export function StepEditor({ step, inputs, onChange, onConvert }: StepEditorProps) {
  const id = useId();
  const value = valueOf(step);
  const set = (partial: Partial<MacroStep>) => onChange({ ...step, ...partial } as MacroStep);
  const timeoutSeconds = step.timeoutMs === undefined ? '' : String(step.timeoutMs / 1000);
  return (
    <div className="sb-step-editor">
      {'target' in step && <LocatorFields label={step.type === 'repeatWhile' ? macros.scraper.nextTarget : text.step.target} value={step.target} onChange={(target) => set({ target })} />}
      {value && (
        <ValueField
          label={step.type === 'goto' ? text.step.url : step.type === 'ifText' ? text.step.ifText : text.step.value}
          value={value}
          inputs={inputs}
          onChange={(next) => onChange(withValue(step, next))}
          onConvert={onConvert}
        />
      )}
      {step.type === 'click' && (
        <label className="sb-check">
          <input type="checkbox" checked={step.count === 2} onChange={(event) => onChange(event.target.checked ? { ...step, count: 2 } : (({ count: _count, ...rest }) => rest)(step))} />
          {text.step.doubleClick}
        </label>
      )}
      {step.type === 'press' && (
        <div className="sb-field">
          <label htmlFor={`${id}-key`}>{text.step.key}</label>
          <input id={`${id}-key`} value={step.key} onChange={(event) => set({ key: event.target.value })} aria-describedby={`${id}-key-help`} />
          <span id={`${id}-key-help`} className="ui-muted sb-small">{text.step.keyHelp}</span>
        </div>
      )}
      {step.type === 'check' && (
        <label className="sb-check">
          <input type="checkbox" checked={step.checked} onChange={(event) => set({ checked: event.target.checked })} />
          {text.step.checked}
        </label>
      )}
      {step.type === 'upload' && <InputSelect label={text.step.uploadInput} value={step.input} inputs={inputs} kinds={['file']} onChange={(input) => set({ input })} />}
      {step.type === 'download' && (
        <label className="sb-field" htmlFor={`${id}-file`}>
          {text.step.fileName}
          <input id={`${id}-file`} value={step.fileName ?? ''} onChange={(event) => onChange(event.target.value === '' ? (({ fileName: _fileName, ...rest }) => rest)(step) : { ...step, fileName: event.target.value })} />
        </label>
      )}
      {step.type === 'waitFor' && (
        <label className="sb-field" htmlFor={`${id}-state`}>
          {text.step.state}
          <select id={`${id}-state`} value={step.state} onChange={(event) => set({ state: event.target.value as 'visible' | 'hidden' })}>
            <option value="visible">{text.step.states.visible}</option>
            <option value="hidden">{text.step.states.hidden}</option>
          </select>
        </label>
      )}
      {step.type === 'extractText' && (
        <label className="sb-field" htmlFor={`${id}-column`}>
          {text.step.column}
          <input id={`${id}-column`} value={step.column} onChange={(event) => set({ column: event.target.value })} />
        </label>
      )}
      {step.type === 'extractList' && (
        <fieldset className="sb-fields">
          <legend>{text.step.fields}</legend>
          <ol className="sb-plain-list">
            {step.fields.map((field, index) => (
              <li key={index} className="sb-row">
                <label className="sb-field" htmlFor={`${id}-field-${index}-column`}>
                  {text.step.fieldColumn}
                  <input id={`${id}-field-${index}-column`} value={field.column} onChange={(event) => set({ fields: step.fields.map((item, at) => (at === index ? { ...item, column: event.target.value } : item)) })} />
                </label>
                <label className="sb-field sb-field--grow" htmlFor={`${id}-field-${index}-target`}>
                  {text.step.fieldTarget}
                  <input id={`${id}-field-${index}-target`} value={field.target} onChange={(event) => set({ fields: step.fields.map((item, at) => (at === index ? { ...item, target: event.target.value } : item)) })} />
                </label>
                <Button variant="ghost" aria-label={text.step.fieldRemove(index + 1)} disabled={step.fields.length === 1} onClick={() => set({ fields: step.fields.filter((_, at) => at !== index) })}>
                  {text.inputs.removeShort}
                </Button>
              </li>
            ))}
          </ol>
          <Button variant="secondary" onClick={() => set({ fields: [...step.fields, { column: '', target: '' }] })}>{text.step.fieldAdd}</Button>
        </fieldset>
      )}
      {step.type === 'ifText' && (
        <label className="sb-field" htmlFor={`${id}-present`}>
          {text.step.present}
          <select id={`${id}-present`} value={step.present ? 'yes' : 'no'} onChange={(event) => set({ present: event.target.value === 'yes' })}>
            <option value="yes">{text.step.presentYes}</option>
            <option value="no">{text.step.presentNo}</option>
          </select>
        </label>
      )}
      {step.type === 'forEachRow' && <InputSelect label={text.step.rowInput} value={step.input} inputs={inputs} kinds={['workbook']} onChange={(input) => set({ input })} />}
      {step.type === 'repeatWhile' && (
        <label className="sb-field" htmlFor={`${id}-times`}>
          {text.step.maxTimes}
          <input id={`${id}-times`} type="number" min={1} max={500} value={step.maxTimes} onChange={(event) => set({ maxTimes: Number(event.target.value) })} />
        </label>
      )}
      <div className="sb-row">
        <label className="sb-field sb-field--grow" htmlFor={`${id}-note`}>
          {text.steps.note}
          <input id={`${id}-note`} value={step.note ?? ''} onChange={(event) => onChange(event.target.value === '' ? (({ note: _note, ...rest }) => rest)(step) as MacroStep : { ...step, note: event.target.value })} />
        </label>
        <div className="sb-field">
          <label htmlFor={`${id}-timeout`}>{text.steps.timeout}</label>
          <input
            id={`${id}-timeout`}
            type="number"
            min={0.5}
            max={120}
            step={0.5}
            value={timeoutSeconds}
            aria-describedby={`${id}-timeout-help`}
            onChange={(event) => onChange(event.target.value === '' ? (({ timeoutMs: _timeoutMs, ...rest }) => rest)(step) as MacroStep : { ...step, timeoutMs: Math.round(Number(event.target.value) * 1000) })}
          />
          <span id={`${id}-timeout-help`} className="ui-muted sb-small">{text.steps.timeoutHelp}</span>
        </div>
      </div>
    </div>
  );
}
