import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { unauthenticated } from '../../http/errors.ts';
import { requireSession } from '../../http/session.ts';

/** The signed-in user and the group whose runs and schedules they see. */
export interface Member {
  userId: string;
  groupId: string;
}

/** The caller's group, or a 401: every history and schedule query is scoped by it. */
export async function requireMember(request: FastifyRequest, ctx: AppContext): Promise<Member> {
  const { userId } = await requireSession(request, ctx);
  const user = await ctx.db.selectFrom('users').select('group_id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw unauthenticated();
  return { userId, groupId: user.group_id };
}
