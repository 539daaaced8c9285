import { useSearchParams } from 'react-router-dom';
import { BackToApp } from '../../app/shell/BackToApp.tsx';
import { screens } from '../../i18n/es-screens.ts';
import { EmptyState, IconAlert, IconCheck, IconInfo } from '../../ui/index.ts';

const text = screens.oauth;

/** Where Google or Microsoft send the user back after authorising an account: it reports the result. */
export default function OAuthResponsePage() {
  const [params] = useSearchParams();
  const error = params.get('error');
  const code = params.get('code');
  const outcome = error
    ? { icon: <IconAlert />, title: text.errorTitle, detail: text.errorText(params.get('error_description') ?? error) }
    : code
      ? { icon: <IconCheck />, title: text.successTitle, detail: text.successText }
      : { icon: <IconInfo />, title: text.missingTitle, detail: text.missingText };

  return (
    <main className="ui-page ui-page--standalone">
      <h1 className="ui-visually-hidden">{text.title}</h1>
      <BackToApp />
      <div role={error ? 'alert' : 'status'}>
        <EmptyState icon={outcome.icon} title={outcome.title} text={`${outcome.detail} ${text.closeWindow}`} />
      </div>
    </main>
  );
}
