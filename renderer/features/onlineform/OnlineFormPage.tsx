import { BackToApp } from '../../app/shell/BackToApp.tsx';
import { areas } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconForm } from '../../ui/index.ts';

export default function OnlineFormPage() {
  return <ComingSoonArea title={areas.onlineform.title} summary={areas.onlineform.summary} icon={<IconForm />} lead={<BackToApp />} />;
}
