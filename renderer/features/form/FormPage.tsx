import { BackToApp } from '../../app/shell/BackToApp.tsx';
import { screens } from '../../i18n/es-screens.ts';
import { EmptyState, IconForm } from '../../ui/index.ts';

const text = screens.form;

/** Public form links ('/form/:context/:id?') have no forms behind them yet, so none can be found. */
export default function FormPage() {
  return (
    <main className="ui-page ui-page--standalone">
      <h1 className="ui-visually-hidden">{text.title}</h1>
      <BackToApp />
      <EmptyState icon={<IconForm />} title={text.missing} />
    </main>
  );
}
