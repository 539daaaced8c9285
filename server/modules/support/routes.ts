import type { FastifyInstance } from 'fastify';
import { supportInfoSchema, supportPath, type SupportInfo } from '#shared/api/support.ts';
import type { SupportConfig } from './config.ts';

/** Public: where to write for help, the same for everyone (Pagos and /help point here). */
export function registerSupportRoutes(app: FastifyInstance, config: SupportConfig): void {
  const body: SupportInfo = supportInfoSchema.parse({ email: config.email });
  app.get(supportPath, async () => body);
}
