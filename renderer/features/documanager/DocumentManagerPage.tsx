import { areas } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconFolder } from '../../ui/index.ts';

export default function DocumentManagerPage() {
  return <ComingSoonArea title={areas.documanager.title} summary={areas.documanager.summary} icon={<IconFolder />} />;
}
