import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireSession } from '../../http/session.ts';

/** The signed-in user and the group that owns their uploads and runs. */
export interface Member {
  userId: string;
  groupId: string;
}

/** The caller's group, or a 401: every file and run query is scoped by it. */
export async function requireMember(request: FastifyRequest, ctx: AppContext): Promise<Member> {
  const { userId, groupId } = await requireSession(request, ctx);
  return { userId, groupId };
}
