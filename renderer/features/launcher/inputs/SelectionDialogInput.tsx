import { useId, useState } from 'react';
import type { FlowInputDefinition } from '#shared/flows/definition.ts';
import { useBridge } from '../../../app/hooks.ts';
import { launcher } from '../../../i18n/es-launcher.ts';
import { Button } from '../../../ui/Button.tsx';
import { selectedPaths } from '../launcherModel.ts';
import type { LauncherForm } from '../useLauncherForm.ts';
import { FieldMessage } from './FieldMessage.tsx';

const text = launcher.inputs.selection;

/**
 * A SelectionDialog input in the desktop app (spec §7 OpenNativeSelectionDialog): the system's own
 * dialog picks files or a folder (config.directory, config.multiple) on this PC; the chosen paths are
 * listed, each removable, and are the input's value. A desktop flow set to run on another machine
 * cannot use them, and the agent (no window) answers that it has no dialog: both are said under the field.
 */
export function SelectionDialogInput({ input, launcherForm }: { input: FlowInputDefinition; launcherForm: LauncherForm }) {
  const { flow, form, rules, setText, touch, device } = launcherForm;
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();
  const key = input.key;
  const rule = rules[key] ?? {};
  const error = form.errors[key];
  const directory = input.config?.directory === true;
  const multiple = input.config?.multiple === true;
  const paths = selectedPaths(form.watch(key));
  const elsewhere = flow.runsOn === 'desktop' && device.chosen !== null && !device.chosen.thisDevice;
  form.register(key);

  const keep = (next: readonly string[]) => setText(key, next.length === 0 ? '' : JSON.stringify(next));

  const choose = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const result = await bridge.invoke('OpenNativeSelectionDialog', { directory, multiple, title: input.label });
      if (!result.ok) {
        setFailure(result.error.message);
        return;
      }
      // Cancelled: nothing changes, but the field has been visited.
      if (result.data.paths.length === 0) touch(key);
      else keep(multiple ? [...new Set([...paths, ...result.data.paths])] : result.data.paths.slice(0, 1));
    } finally {
      setBusy(false);
    }
  };

  const describedBy = [`${id}-chosen`, error ? `${id}-error` : null, elsewhere ? `${id}-elsewhere` : null].filter(Boolean).join(' ');
  return (
    <div className={`launcher-input launcher-selection${error ? ' launcher-input--invalid' : ''}`} role="group" aria-labelledby={`${id}-label`}>
      <span className="app-field__label" id={`${id}-label`}>{rule.required ? `${input.label} *` : input.label}</span>
      {input.help && <p className="ui-muted launcher-input__help">{input.help}</p>}
      <div id={`${id}-chosen`}>
        {paths.length === 0 ? (
          <p className="launcher-certificate__chosen ui-muted">{text.none(directory)}</p>
        ) : (
          <ul className="launcher-selection__paths" aria-label={text.chosenLabel(input.label)}>
            {paths.map((path) => (
              <li key={path} className="launcher-selection__path">
                <span className="launcher-selection__name">{path}</span>
                <Button variant="ghost" aria-label={text.removeLabel(path)} onClick={() => keep(paths.filter((kept) => kept !== path))}>
                  {text.remove}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="launcher-certificate__actions">
        <Button
          variant="secondary"
          onClick={() => void choose()}
          loading={busy}
          disabled={elsewhere}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        >
          {text.choose(directory, multiple)}
        </Button>
        {elsewhere && <span id={`${id}-elsewhere`} className="ui-muted">{text.thisDeviceOnly}</span>}
        {failure && <span role="alert" className="launcher-input__failure">{failure}</span>}
      </div>
      <FieldMessage id={`${id}-error`} error={error} rule={rule} />
    </div>
  );
}
