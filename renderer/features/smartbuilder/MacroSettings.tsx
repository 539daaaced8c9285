import { useId } from 'react';
import type { ReactNode } from 'react';
import { MACRO_INPUT_KIND_LABELS, MACRO_INPUT_KINDS } from '#shared/macros/definition.ts';
import type { MacroDefinition, MacroInput, MacroInputKind } from '#shared/macros/definition.ts';
import { macros } from '../../i18n/es-macros.ts';
import { Button } from '../../ui/index.ts';
import { keyFromLabel } from './macroModel.ts';

const text = macros.smartbuilder;

/** A titled card of the editor. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="ui-card sb-card" aria-labelledby={id}>
      <h3 id={id} className="sb-section-title">{title}</h3>
      {children}
    </section>
  );
}

/** A macro's general settings: name, start address, description, the browser's certificate, charge and limits. */
export function GeneralSettings({ macro, onChange: change }: { macro: MacroDefinition; onChange: (macro: MacroDefinition) => void }) {
  const ids = useId();
  const setField = <K extends keyof MacroDefinition>(key: K, value: MacroDefinition[K]) => change({ ...macro, [key]: value });
  const certificateInputs = macro.inputs.filter((input) => input.kind === 'certificate');
  return (
    <Section title={text.editor.sections.general}>
      <div className="sb-grid">
        <label className="sb-field" htmlFor={`${ids}-name`}>
          {text.editor.name}
          <input id={`${ids}-name`} value={macro.name} maxLength={80} onChange={(event) => setField('name', event.target.value)} />
        </label>
        <div className="sb-field">
          <label htmlFor={`${ids}-url`}>{text.editor.startUrl}</label>
          <input id={`${ids}-url`} type="url" value={macro.startUrl} onChange={(event) => setField('startUrl', event.target.value)} aria-describedby={`${ids}-url-help`} />
          <span id={`${ids}-url-help`} className="ui-muted sb-small">{text.editor.startUrlHelp}</span>
        </div>
      </div>
      <label className="sb-field" htmlFor={`${ids}-description`}>
        {text.editor.description}
        <textarea id={`${ids}-description`} rows={2} value={macro.description} maxLength={1000} onChange={(event) => setField('description', event.target.value)} />
      </label>
      <div className="sb-grid">
        <div className="sb-field">
          <label htmlFor={`${ids}-certificate`}>{text.editor.certificateInput}</label>
          <select
            id={`${ids}-certificate`}
            value={macro.certificate?.input ?? ''}
            onChange={(event) => {
              const input = event.target.value;
              if (input === '') {
                const { certificate: _certificate, ...rest } = macro;
                change(rest);
              } else {
                const origin = /^https:\/\/[^/\s]+/.exec(macro.startUrl)?.[0];
                change({ ...macro, certificate: { input, origins: macro.certificate?.origins ?? (origin ? [origin] : []) } });
              }
            }}
            aria-describedby={certificateInputs.length === 0 ? `${ids}-certificate-help` : undefined}
          >
            <option value="">{text.editor.certificateNone}</option>
            {certificateInputs.map((input) => <option key={input.key} value={input.key}>{input.label}</option>)}
          </select>
          {certificateInputs.length === 0 && <span id={`${ids}-certificate-help`} className="ui-muted sb-small">{text.editor.certificateNeedsInput}</span>}
        </div>
        {macro.certificate && (
          <div className="sb-field">
            <label htmlFor={`${ids}-origins`}>{text.editor.certificateOrigins}</label>
            <textarea
              id={`${ids}-origins`}
              rows={2}
              value={macro.certificate.origins.join('\n')}
              aria-describedby={`${ids}-origins-help`}
              onChange={(event) => change({ ...macro, certificate: { input: macro.certificate!.input, origins: event.target.value.split('\n').map((line) => line.trim()).filter((line, index, all) => line !== '' || index === all.length - 1) } })}
            />
            <span id={`${ids}-origins-help`} className="ui-muted sb-small">{text.editor.certificateOriginsHelp}</span>
          </div>
        )}
      </div>
      <div className="sb-grid sb-grid--narrow">
        <label className="sb-field" htmlFor={`${ids}-per`}>
          {text.editor.chargePer}
          <select id={`${ids}-per`} value={macro.charge.per} onChange={(event) => setField('charge', { ...macro.charge, per: event.target.value as 'run' | 'row' })}>
            <option value="run">{text.editor.chargeRun}</option>
            <option value="row">{text.editor.chargeRow}</option>
          </select>
        </label>
        <label className="sb-field" htmlFor={`${ids}-slans`}>
          {text.editor.slans}
          <input id={`${ids}-slans`} type="number" min={0} max={1000} step="any" value={macro.charge.slans} onChange={(event) => setField('charge', { ...macro.charge, slans: Number(event.target.value) })} />
        </label>
        <label className="sb-field" htmlFor={`${ids}-output`}>
          {text.editor.outputFileName}
          <input id={`${ids}-output`} value={macro.outputFileName} onChange={(event) => setField('outputFileName', event.target.value)} />
        </label>
        <label className="sb-field" htmlFor={`${ids}-limit`}>
          {text.editor.timeLimit}
          <input id={`${ids}-limit`} type="number" min={10} max={3600} value={macro.timeLimitSeconds} onChange={(event) => setField('timeLimitSeconds', Number(event.target.value))} />
        </label>
      </div>
    </Section>
  );
}

/** The launch inputs: label (the key follows it while new), kind, required. */
export function InputsEditor({ inputs, onChange, readOnly }: { inputs: readonly MacroInput[]; onChange: (inputs: MacroInput[]) => void; readOnly: boolean }) {
  const ids = useId();
  const t = text.inputs;
  const set = (index: number, partial: Partial<MacroInput>) => onChange(inputs.map((input, at) => (at === index ? { ...input, ...partial } : input)));
  return (
    <>
      {inputs.length === 0 ? (
        <p className="ui-muted">{t.empty}</p>
      ) : (
        <ol className="sb-inputs">
          {inputs.map((input, index) => (
            <li key={index} className="sb-input" aria-label={t.itemLabel(index + 1)}>
              <label className="sb-field sb-field--grow" htmlFor={`${ids}-${index}-label`}>
                {t.label}
                <input id={`${ids}-${index}-label`} value={input.label} maxLength={80} onChange={(event) => set(index, { label: event.target.value })} />
              </label>
              <label className="sb-field" htmlFor={`${ids}-${index}-key`}>
                {t.key}
                <input id={`${ids}-${index}-key`} value={input.key} maxLength={40} onChange={(event) => set(index, { key: event.target.value })} className="sb-code" />
              </label>
              <label className="sb-field" htmlFor={`${ids}-${index}-kind`}>
                {t.kind}
                <select id={`${ids}-${index}-kind`} value={input.kind} onChange={(event) => set(index, { kind: event.target.value as MacroInputKind })}>
                  {MACRO_INPUT_KINDS.map((kind) => <option key={kind} value={kind}>{MACRO_INPUT_KIND_LABELS[kind]}</option>)}
                </select>
              </label>
              <label className="sb-check">
                <input type="checkbox" checked={input.required} onChange={(event) => set(index, { required: event.target.checked })} />
                {t.required}
              </label>
              {!readOnly && <Button variant="ghost" aria-label={t.remove(input.label)} onClick={() => onChange(inputs.filter((_, at) => at !== index))}>{t.removeShort}</Button>}
            </li>
          ))}
        </ol>
      )}
      {!readOnly && (
        <div>
          <Button
            variant="secondary"
            onClick={() => onChange([...inputs, { key: keyFromLabel(t.newLabel, inputs.map((input) => input.key)), label: t.newLabel, kind: 'text', required: true }])}
          >
            {t.add}
          </Button>
        </div>
      )}
    </>
  );
}
