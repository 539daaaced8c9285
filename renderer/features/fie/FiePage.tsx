import { areas } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconFile } from '../../ui/index.ts';

export default function FiePage() {
  return <ComingSoonArea title={areas.fie.title} summary={areas.fie.summary} icon={<IconFile />} />;
}
