import type { FlowInputDefinition } from '#shared/flows/definition.ts';
import { useBridge } from '../../../app/hooks.ts';
import { launcher } from '../../../i18n/es-launcher.ts';
import { Button } from '../../../ui/Button.tsx';
import { selectedPaths } from '../launcherModel.ts';
import type { LauncherForm } from '../useLauncherForm.ts';
import { PickerField, usePicker } from './PickerField.tsx';

const text = launcher.inputs.selection;

/**
 * A SelectionDialog input in the desktop app (spec §7 OpenNativeSelectionDialog): the system's own
 * dialog picks files or a folder (config.directory, config.multiple) on this PC; the chosen paths are
 * listed, each removable, and are the input's value. A desktop flow set to run on another machine
 * cannot use them, and the agent (no window) answers that it has no dialog: both are said under the field.
 */
export function SelectionDialogInput({ input, launcherForm }: { input: FlowInputDefinition; launcherForm: LauncherForm }) {
  const { flow, form, setText, touch, device } = launcherForm;
  const bridge = useBridge();
  const picker = usePicker(input, launcherForm);
  const { id, key, error, busy } = picker;
  const directory = input.config?.directory === true;
  const multiple = input.config?.multiple === true;
  const paths = selectedPaths(form.watch(key));
  const elsewhere = flow.runsOn === 'desktop' && device.chosen !== null && !device.chosen.thisDevice;
  form.register(key);

  const keep = (next: readonly string[]) => setText(key, next.length === 0 ? '' : JSON.stringify(next));

  const choose = async (): Promise<string | undefined> => {
    const result = await bridge.invoke('OpenNativeSelectionDialog', { directory, multiple, title: input.label });
    if (!result.ok) return result.error.message;
    // Cancelled: nothing changes, but the field has been visited.
    if (result.data.paths.length === 0) touch(key);
    else keep(multiple ? [...new Set([...paths, ...result.data.paths])] : result.data.paths.slice(0, 1));
    return undefined;
  };

  const describedBy = [`${id}-chosen`, error ? `${id}-error` : null, elsewhere ? `${id}-elsewhere` : null].filter(Boolean).join(' ');
  return (
    <PickerField
      input={input}
      picker={picker}
      className="launcher-selection"
      chosen={
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
      }
    >
      <Button
        variant="secondary"
        onClick={() => void picker.pick(choose)}
        loading={busy}
        disabled={elsewhere}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      >
        {text.choose(directory, multiple)}
      </Button>
      {elsewhere && <span id={`${id}-elsewhere`} className="ui-muted">{text.thisDeviceOnly}</span>}
    </PickerField>
  );
}
