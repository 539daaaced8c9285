import { areas } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconTruck } from '../../ui/index.ts';

export default function FrumecarPage() {
  return <ComingSoonArea title={areas.frumecar.title} summary={areas.frumecar.summary} icon={<IconTruck />} />;
}
