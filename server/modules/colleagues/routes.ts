// SCAFFOLD (issue 26 contract): replaced by the colleagues work.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { PasswordGuard } from '../auth/guard.ts';
import type { Colleagues } from './service.ts';

/** The owner's colleague routes and the public invitation routes (preview, accept). */
export function registerColleaguesRoutes(_app: FastifyInstance, _ctx: AppContext, _colleagues: Colleagues, _passwords: PasswordGuard): void {}
