import { areas } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconRecord } from '../../ui/index.ts';

export default function RecorderPage() {
  return <ComingSoonArea title={areas.recorder.title} summary={areas.recorder.summary} icon={<IconRecord />} />;
}
