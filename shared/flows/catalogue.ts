/**
 * How the catalogue is searched and grouped, the same on the flows screen and in the Roboteka:
 * every word typed must appear in the robot's name, description or group, case and accents ignored
 * ('nomina' finds 'Nóminas'); groups and the robots inside them in Spanish alphabetical order.
 */

export interface CatalogueEntry {
  name: string;
  description: string;
  group: string;
}

/** Lower case without accents or other combining marks. */
export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** Whether the robot matches every word of the query; a blank query matches every robot. */
export function matchesFlowSearch(flow: CatalogueEntry, query: string): boolean {
  const words = searchKey(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = searchKey(`${flow.name}\n${flow.description}\n${flow.group}`);
  return words.every((word) => haystack.includes(word));
}

export interface FlowGroup<T> {
  group: string;
  flows: T[];
}

const spanish = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** The robots by group, groups and robots in Spanish order; a group with no robot is left out. */
export function groupFlows<T extends CatalogueEntry>(flows: readonly T[]): FlowGroup<T>[] {
  const byGroup = new Map<string, T[]>();
  for (const flow of flows) {
    const group = byGroup.get(flow.group);
    if (group) group.push(flow);
    else byGroup.set(flow.group, [flow]);
  }
  return [...byGroup.entries()]
    .sort(([a], [b]) => spanish.compare(a, b))
    .map(([group, members]) => ({ group, flows: [...members].sort((a, b) => spanish.compare(a.name, b.name)) }));
}
