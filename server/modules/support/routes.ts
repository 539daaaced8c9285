import type { FastifyInstance } from 'fastify';
import { supportInfoSchema, supportPath, type SupportInfo } from '#shared/api/support.ts';
import { routeSchema } from '../../http/openapi.ts';
import type { SupportConfig } from './config.ts';

/** Public: where to write for help, the same for everyone (Pagos and /help point here). */
export function registerSupportRoutes(app: FastifyInstance, config: SupportConfig): void {
  const body: SupportInfo = supportInfoSchema.parse({ email: config.email });
  app.get(supportPath, { schema: routeSchema({ tag: 'support', summary: 'The support address (public)', response: { 200: supportInfoSchema } }) }, async () => body);
}
