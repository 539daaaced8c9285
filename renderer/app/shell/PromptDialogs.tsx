import { useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { searchCertificates } from '#shared/certificates/search.ts';
import { isSearchable } from '#shared/forms/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CertificateItem } from '../../ui/CertificateItem.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import type { CertificateChoice, CertificatePromptOptions, TextPromptOptions } from '../contexts.ts';
import { es } from '../../i18n/es.ts';
import { widgets } from '../../i18n/es-screens.ts';
import { TextField } from '../../ui/TextField.tsx';

// The prompts' dialogs, loaded by PromptProvider when the first one opens.

export function TextPrompt({ options, onDone }: { options: TextPromptOptions; onDone: (answer: string | null) => void }) {
  const [value, setValue] = useState(options.initialValue ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onDone(value);
  };
  return (
    <Modal open title={options.title} onClose={() => onDone(null)} size="small">
      <form onSubmit={submit} className="app-prompt">
        <TextField label={options.label} value={value} onValueChange={setValue} />
        <div className="app-prompt__actions">
          <Button variant="secondary" onClick={() => onDone(null)}>
            {es.common.cancel}
          </Button>
          <Button type="submit">{options.confirmLabel ?? es.common.accept}</Button>
        </div>
      </form>
    </Modal>
  );
}

interface MachineGroup {
  machineName: string | undefined;
  choices: CertificateChoice[];
}

/** Choices under their machine, machines in the order they first appear; choices without one together. */
function groupByMachine(choices: readonly CertificateChoice[]): MachineGroup[] {
  const groups = new Map<string | undefined, CertificateChoice[]>();
  for (const choice of choices) {
    const group = groups.get(choice.machineName) ?? [];
    group.push(choice);
    groups.set(choice.machineName, group);
  }
  return [...groups].map(([machineName, grouped]) => ({ machineName, choices: grouped }));
}

/**
 * The certificate picker (spec §2 shell, §5 launch and selection): a search box over device and
 * certificate name once there are more than 5, radios (one certificate; choosing one clears the
 * others) or checkboxes, and the spec's message when confirmed with nothing chosen.
 */
export function CertificatePrompt({ options, multiple, onDone }: { options: CertificatePromptOptions; multiple: boolean; onDone: (answer: CertificateChoice[] | null) => void }) {
  const radioName = useId();
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(() => new Set(options.selectedIds ?? []));
  const [query, setQuery] = useState('');
  const [missing, setMissing] = useState(false);
  const all = options.certificates;
  const searchable = isSearchable(all);
  const shown = searchable ? searchCertificates(all, query, (choice) => ({ deviceName: choice.machineName, certificateName: choice.name })) : all;
  const groups = groupByMachine(shown);
  const grouped = groups.some((group) => group.machineName !== undefined);
  const chosen = all.filter((choice) => selectedIds.has(choice.id));

  const choose = (id: string, checked: boolean) => {
    setMissing(false);
    setSelectedIds((current) => {
      if (!multiple) return new Set(checked ? [id] : []);
      const next = new Set(current);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  };

  const confirm = () => {
    if (chosen.length === 0) {
      setMissing(true);
      return;
    }
    onDone(chosen);
  };

  // Rows enter one after another, 40 ms apart, in the order shown.
  const positions = new Map(shown.map((choice, index) => [choice.id, index]));
  const row = (choice: CertificateChoice) => {
    const selection = {
      type: multiple ? ('checkbox' as const) : ('radio' as const),
      name: multiple ? undefined : radioName,
      value: choice.id,
      checked: selectedIds.has(choice.id),
      onChange: (checked: boolean) => choose(choice.id, checked),
    };
    if (!choice.certificate) {
      return (
        <label key={choice.id} className="app-prompt__certificate">
          <input
            type={selection.type}
            name={selection.name}
            value={choice.id}
            checked={selection.checked}
            onChange={(event) => selection.onChange(event.target.checked)}
          />
          <span>
            <strong>{choice.name}</strong>
            {choice.detail && <small>{choice.detail}</small>}
          </span>
        </label>
      );
    }
    return <CertificateItem key={choice.id} certificate={choice.certificate} machineName={choice.machineName} selection={selection} index={positions.get(choice.id)} />;
  };

  return (
    <Modal
      open
      title={options.title}
      onClose={() => onDone(null)}
      footer={
        <>
          {missing && (
            <p role="alert" className="app-prompt__error">
              {widgets.certificate.required}
            </p>
          )}
          <Button variant="secondary" onClick={() => onDone(null)}>
            {es.common.cancel}
          </Button>
          <Button onClick={confirm}>{options.confirmLabel ?? es.common.accept}</Button>
        </>
      }
    >
      <div className="app-prompt">
        {options.note && <p className="ui-muted app-prompt__note">{options.note}</p>}
        {all.length === 0 ? (
          <p className="app-prompt__empty">{options.emptyText ?? es.prompt.noCertificates}</p>
        ) : (
          <>
            {searchable && <SearchInput label={es.prompt.searchCertificates} value={query} onSearch={setQuery} />}
            <fieldset className="app-prompt__certificates">
              <legend className="ui-visually-hidden">{multiple ? es.prompt.chooseCertificates : es.prompt.chooseCertificate}</legend>
              {shown.length === 0 && <p className="ui-muted">{widgets.noMatches}</p>}
              {grouped
                ? groups.map((group) => (
                    <MachineSection key={group.machineName ?? ''} title={group.machineName ?? es.prompt.otherCertificates}>
                      {group.choices.map(row)}
                    </MachineSection>
                  ))
                : shown.map(row)}
            </fieldset>
          </>
        )}
      </div>
    </Modal>
  );
}

function MachineSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <div role="group" aria-labelledby={headingId} className="app-prompt__machine">
      <h3 id={headingId} className="app-prompt__machine-title">
        {title}
      </h3>
      {children}
    </div>
  );
}
