import { HttpError } from '../../http/errors.ts';
import type { CatalogueFlow, FlowCatalogue } from './catalogue.ts';

/** The flows module's refusals, shared by its routes and the services that look a flow up (runs, machines). */

export const FLOW_NOT_FOUND_MESSAGE = 'Este robot ya no forma parte de nuestra familia';

export function flowNotFound(): HttpError {
  return new HttpError(404, 'FLOW_NOT_FOUND', FLOW_NOT_FOUND_MESSAGE);
}

/** A flow of the catalogue by id, or the spec's 404 for an unknown or retired one. */
export function requireFlow(catalogue: FlowCatalogue, id: string): CatalogueFlow {
  const flow = catalogue.get(id);
  if (!flow) throw flowNotFound();
  return flow;
}
