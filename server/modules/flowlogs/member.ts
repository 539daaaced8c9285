import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireSession } from '../../http/session.ts';

/** The signed-in user and the group whose runs and schedules they see. */
export interface Member {
  userId: string;
  groupId: string;
}

/** The caller's group (read with the session), or a 401: every history and schedule query is scoped by it. */
export async function requireMember(request: FastifyRequest, ctx: AppContext): Promise<Member> {
  const { userId, groupId } = await requireSession(request, ctx);
  return { userId, groupId };
}
