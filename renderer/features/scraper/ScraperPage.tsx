import { areas } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconGlobe } from '../../ui/index.ts';

export default function ScraperPage() {
  return <ComingSoonArea title={areas.scraper.title} summary={areas.scraper.summary} icon={<IconGlobe />} />;
}
