import { useId, useState } from 'react';
import { LOCATOR_KIND_LABELS, LOCATOR_KINDS, LOCATOR_ROLE_LABELS, LOCATOR_ROLES, partsOf, selectorOf } from '#shared/macros/locator.ts';
import type { LocatorKind, LocatorParts } from '#shared/macros/locator.ts';
import { macros } from '../../i18n/es-macros.ts';

const text = macros.smartbuilder.step;

/** The parts a kind starts with when the user switches to it, carrying over what text there was. */
function switchKind(parts: LocatorParts, kind: LocatorKind): LocatorParts {
  const carried = parts.kind === 'role' ? parts.name : parts.kind === 'testid' ? parts.id : parts.kind === 'selector' ? '' : parts.text;
  switch (kind) {
    case 'role': return { kind, role: 'button', name: carried, exact: false };
    case 'label':
    case 'placeholder':
    case 'text': return { kind, text: carried, exact: false };
    case 'testid': return { kind, id: carried };
    case 'selector': return { kind, selector: selectorOf(parts) };
  }
}

/**
 * A step's element as SmartBuilder edits it (shared/macros/locator.ts): role and accessible name, a
 * label, placeholder or text (exact or not), a test id, or the raw Playwright selector as recorded.
 */
export function LocatorFields({ label, value, onChange, disabled = false }: { label: string; value: string; onChange: (selector: string) => void; disabled?: boolean }) {
  const id = useId();
  // 'Selector avanzado' sticks even when the selector it shows could be read as one of the other kinds.
  const [raw, setRaw] = useState(false);
  // A new step has no element yet: it starts on the readable kind recordings use most.
  const parts: LocatorParts = raw ? { kind: 'selector', selector: value } : value === '' ? { kind: 'role', role: 'button', name: '', exact: false } : partsOf(value);
  const set = (next: LocatorParts) => {
    setRaw(next.kind === 'selector');
    onChange(selectorOf(next));
  };
  return (
    <fieldset className="sb-locator" disabled={disabled}>
      <legend>{label}</legend>
      <div className="sb-row">
        <label className="sb-field" htmlFor={`${id}-kind`}>
          {text.locatorKind}
          <select id={`${id}-kind`} value={parts.kind} onChange={(event) => set(switchKind(parts, event.target.value as LocatorKind))}>
            {LOCATOR_KINDS.map((kind) => <option key={kind} value={kind}>{LOCATOR_KIND_LABELS[kind]}</option>)}
          </select>
        </label>
        {parts.kind === 'role' && (
          <>
            <label className="sb-field" htmlFor={`${id}-role`}>
              {text.role}
              <select id={`${id}-role`} value={parts.role} onChange={(event) => set({ ...parts, role: event.target.value })}>
                {!(LOCATOR_ROLES as readonly string[]).includes(parts.role) && <option value={parts.role}>{parts.role}</option>}
                {LOCATOR_ROLES.map((role) => <option key={role} value={role}>{LOCATOR_ROLE_LABELS[role]}</option>)}
              </select>
            </label>
            <label className="sb-field sb-field--grow" htmlFor={`${id}-name`}>
              {text.roleName}
              <input id={`${id}-name`} value={parts.name} onChange={(event) => set({ ...parts, name: event.target.value })} />
            </label>
          </>
        )}
        {(parts.kind === 'label' || parts.kind === 'placeholder' || parts.kind === 'text') && (
          <label className="sb-field sb-field--grow" htmlFor={`${id}-text`}>
            {text.text}
            <input id={`${id}-text`} value={parts.text} onChange={(event) => set({ ...parts, text: event.target.value })} />
          </label>
        )}
        {parts.kind === 'testid' && (
          <label className="sb-field sb-field--grow" htmlFor={`${id}-testid`}>
            {text.testId}
            <input id={`${id}-testid`} value={parts.id} onChange={(event) => set({ ...parts, id: event.target.value })} />
          </label>
        )}
      </div>
      {(parts.kind === 'role' || parts.kind === 'label' || parts.kind === 'placeholder' || parts.kind === 'text') && (
        <label className="sb-check">
          <input type="checkbox" checked={parts.exact} onChange={(event) => set({ ...parts, exact: event.target.checked })} />
          {text.exact}
        </label>
      )}
      {parts.kind === 'selector' ? (
        <div className="sb-field">
          <label htmlFor={`${id}-selector`}>{text.selector}</label>
          <textarea id={`${id}-selector`} rows={2} value={parts.selector} onChange={(event) => onChange(event.target.value)} aria-describedby={`${id}-selector-help`} />
          <span id={`${id}-selector-help`} className="ui-muted sb-small">{text.selectorHelp}</span>
        </div>
      ) : (
        <p className="ui-muted sb-small sb-code-line">
          {text.selectorResult} <code>{value || '—'}</code>
        </p>
      )}
    </fieldset>
  );
}
