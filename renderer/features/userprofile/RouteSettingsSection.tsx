import { useId, useState } from 'react';
import { DEFAULT_ROUTE_CHOICES, HIDEABLE_ROUTES, OPT_IN_ROUTES } from '#shared/api/groups.ts';
import type { RouteSettings } from '#shared/api/groups.ts';
import { useRouteSettingsQuery, useSaveRouteSettingsMutation } from '../../api/groups.ts';
import { useAppDispatch, useSession, useToast } from '../../app/hooks.ts';
import { userUpdated } from '../../app/session.ts';
import { routeSettings as text } from '../../i18n/es-documanager.ts';
import { Button } from '../../ui/Button.tsx';
import { errorMessage } from '../../ui/forms.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { Toggle } from '../../ui/Toggle.tsx';
import { defaultRouteAvailable, screenName, toggled } from './routeScreens.ts';
import './routeSettings.css';

/**
 * 'Pantallas de la asesoría' (issue 40 §4): which screens the firm hides, which opt-in screens it turns
 * on and where the app opens. Every member sees them; only the owner changes them (the server refuses
 * anyone else too). A save updates the session's user, so the menu and the guard follow at once.
 */
export function RouteSettingsSection() {
  const { data, isLoading, isError, refetch } = useRouteSettingsQuery();
  return (
    <section className="app-card route-settings" aria-labelledby="route-settings-title">
      <h2 id="route-settings-title">{text.title}</h2>
      <p className="route-settings__note">{text.intro}</p>
      {isLoading && <Spinner label={text.loading} />}
      {isError && !data && (
        <div role="alert" className="app-form__alert">
          <p>{text.loadFailed}</p>
          <Button variant="secondary" onClick={() => void refetch()}>{text.retry}</Button>
        </div>
      )}
      {/* Keyed by what the server holds: a fresh answer (after a save or a refetch) resets the form. */}
      {data && <RouteSettingsForm key={JSON.stringify(data)} saved={data} />}
    </section>
  );
}

function RouteSettingsForm({ saved }: { saved: RouteSettings }) {
  const { user } = useSession();
  const dispatch = useAppDispatch();
  const toast = useToast();
  const selectId = useId();
  const hintId = useId();
  const warningId = useId();
  const [draft, setDraft] = useState<RouteSettings>(saved);
  const [save, { isLoading: saving }] = useSaveRouteSettingsMutation();
  const canEdit = user?.role === 'owner';
  const startAvailable = defaultRouteAvailable(draft);
  const changed = JSON.stringify(draft) !== JSON.stringify(saved);

  const submit = async () => {
    const result = await save(draft);
    if (result.error) {
      toast.error(errorMessage(result.error, text.saveFailed));
      return;
    }
    // The session's user carries the firm's config the menu and the route guard read.
    if (user) dispatch(userUpdated({ ...user, group: { ...user.group, config: { ...user.group.config, ...result.data } } }));
    toast.success(text.saved);
  };

  return (
    <form
      className="route-settings__form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (canEdit && startAvailable) void submit();
      }}
    >
      {!canEdit && <p className="route-settings__readonly">{text.readOnly}</p>}
      <fieldset className="route-settings__group" disabled={!canEdit}>
        <legend>{text.hiddenTitle}</legend>
        <p className="route-settings__note">{text.hiddenHint}</p>
        <ul className="route-settings__checks">
          {HIDEABLE_ROUTES.map((path) => (
            <li key={path}>
              <label>
                <input
                  type="checkbox"
                  checked={draft.hidden_routes.includes(path)}
                  disabled={!canEdit}
                  aria-label={text.hide(screenName(path))}
                  onChange={(event) => setDraft({ ...draft, hidden_routes: toggled(HIDEABLE_ROUTES, draft.hidden_routes, path, event.target.checked) })}
                />
                <span>{screenName(path)}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset className="route-settings__group" disabled={!canEdit}>
        <legend>{text.optInTitle}</legend>
        <p className="route-settings__note">{text.optInHint}</p>
        {OPT_IN_ROUTES.map((path) => (
          <Toggle
            key={path}
            label={screenName(path)}
            description={text.optInDescriptions[path]}
            checked={draft.allowed_routes.includes(path)}
            disabled={!canEdit}
            onChange={(on) => setDraft({ ...draft, allowed_routes: toggled(OPT_IN_ROUTES, draft.allowed_routes, path, on) })}
          />
        ))}
      </fieldset>
      <div className="route-settings__start">
        <label htmlFor={selectId}>{text.defaultRoute}</label>
        <select
          id={selectId}
          className="ui-input"
          value={draft.defaultRoute}
          disabled={!canEdit}
          aria-describedby={startAvailable ? hintId : `${hintId} ${warningId}`}
          aria-invalid={!startAvailable || undefined}
          onChange={(event) => setDraft({ ...draft, defaultRoute: event.target.value as RouteSettings['defaultRoute'] })}
        >
          {DEFAULT_ROUTE_CHOICES.map((path) => (
            <option key={path} value={path} disabled={path !== draft.defaultRoute && !defaultRouteAvailable(draft, path)}>{screenName(path)}</option>
          ))}
        </select>
        <p id={hintId} className="route-settings__note">{text.defaultRouteHint}</p>
        {!startAvailable && <p id={warningId} role="alert" className="route-settings__warning">{text.defaultRouteUnavailable}</p>}
      </div>
      {canEdit && (
        <div>
          <Button type="submit" loading={saving} disabled={!changed || !startAvailable}>{text.save}</Button>
        </div>
      )}
    </form>
  );
}
