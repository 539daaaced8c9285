import { useId } from 'react';
import { MACHINE_REQUIRED_MESSAGE } from '#shared/api/devices.ts';
import { launcher } from '../../../i18n/es-launcher.ts';
import { Button, IconInfo, InfoCard, Spinner } from '../../../ui/index.ts';
import type { DeviceOption } from '../launcherModel.ts';
import type { DeviceChoice } from '../useDeviceChoice.ts';
import { FieldMessage } from './FieldMessage.tsx';

const text = launcher.device;
/** Keeps room for 'Este robot necesita un dispositivo' so the message moves nothing when it shows. */
const deviceRule = { required: true, requiredMessage: MACHINE_REQUIRED_MESSAGE };

function statusOf(option: DeviceOption): { tone: 'online' | 'offline'; label: string } {
  if (option.thisDevice) return { tone: 'online', label: text.thisDeviceStatus };
  return { tone: option.connection === 'online' ? 'online' : 'offline', label: text.connection[option.connection] };
}

/**
 * 'Dispositivo' (spec §6): where a desktop flow runs, one radio per machine with its connection dot.
 * The web app with no machine at all explains how to connect one instead.
 */
export function DeviceField({ device, onChoose }: { device: DeviceChoice; onChoose: (key: string) => void }) {
  const id = useId();
  const { options, chosen, error, loading, failed } = device;
  return (
    <fieldset className={`launcher-input launcher-device${error ? ' launcher-input--invalid' : ''}`} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="app-field__label">{`${text.label} *`}</legend>
      <p className="ui-muted launcher-input__help">{text.help}</p>
      {loading && options.length === 0 && <Spinner size="small" label={text.loading} />}
      {failed && (
        <div role="alert" className="ui-inline-error">
          <p>{text.failed}</p>
          <Button variant="ghost" onClick={() => void device.reload()}>{text.retry}</Button>
        </div>
      )}
      {!loading && !failed && options.length === 0 && (
        <InfoCard title={text.emptyTitle} tone="info" icon={<IconInfo />}>
          <p>{text.emptyIntro}</p>
          <ol className="ui-list">
            {text.emptySteps.map((step) => <li key={step}>{step}</li>)}
          </ol>
        </InfoCard>
      )}
      {options.length > 0 && (
        <ul className="launcher-device__list">
          {options.map((option) => {
            const status = statusOf(option);
            const owner = !option.thisDevice && !option.machine.mine ? option.machine.owner.name || option.machine.owner.email : null;
            return (
              <li key={option.key}>
                <label className={`launcher-device__option${chosen?.key === option.key ? ' launcher-device__option--chosen' : ''}`}>
                  <input type="radio" name={`${id}-device`} value={option.key} checked={chosen?.key === option.key} onChange={() => onChoose(option.key)} />
                  <span className="launcher-device__text">
                    <span className="launcher-device__name">{option.name}</span>
                    {owner && <span className="ui-muted launcher-device__owner">{text.owner(owner)}</span>}
                  </span>
                  <span className={`launcher-device__status launcher-device__status--${status.tone}`}>
                    <span className="launcher-device__dot" aria-hidden="true" />
                    {status.label}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <FieldMessage id={`${id}-error`} error={error ?? undefined} rule={deviceRule} />
    </fieldset>
  );
}
