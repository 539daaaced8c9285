import { areas } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconBlocks } from '../../ui/index.ts';

export default function SmartBuilderPage() {
  return <ComingSoonArea title={areas.smartbuilder.title} summary={areas.smartbuilder.summary} icon={<IconBlocks />} />;
}
