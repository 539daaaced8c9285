import { HttpError } from '../../http/errors.ts';
import type { CatalogueFlow, FlowCatalogue } from './catalogue.ts';
import type { FlowDirectory } from './directory.ts';

/** The flows module's refusals, shared by its routes and the services that look a flow up (runs, machines). */

export const FLOW_NOT_FOUND_MESSAGE = 'Este robot ya no forma parte de nuestra familia';

export function flowNotFound(): HttpError {
  return new HttpError(404, 'FLOW_NOT_FOUND', FLOW_NOT_FOUND_MESSAGE);
}

/** A built-in flow of the catalogue by id, or the spec's 404 for an unknown or retired one. */
export function requireFlow(catalogue: FlowCatalogue, id: string): CatalogueFlow {
  const flow = catalogue.get(id);
  if (!flow) throw flowNotFound();
  return flow;
}

/** A flow the user may run (built-in, or one of the firm's macros they see), or the same 404: another firm's macro is as unknown. */
export async function requireVisibleFlow(flows: FlowDirectory, groupId: string, id: string, userId: string): Promise<CatalogueFlow> {
  const flow = await flows.flowFor(groupId, id, userId);
  if (!flow) throw flowNotFound();
  return flow;
}
