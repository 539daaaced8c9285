import type { Transaction } from 'kysely';
import type { FieldsValues } from '#shared/api/altas.ts';
import { FIELD, formatAltaDay, workerName } from '#shared/altas/index.ts';
import type { Database } from '../../db/schema.ts';
import { enqueueMail } from '../mail/outbox.ts';

/** The link an advisor's mail gives: the altas screen with that alta's 'Ver Alta' open. */
export const altaLink = (publicUrl: string, submissionId: string) => `${publicUrl}/altasybajas?${new URLSearchParams({ alta: submissionId }).toString()}`;
export const altaReceivedCause = (submissionId: string) => `alta-received:${submissionId}`;

/**
 * Issue 44 (3): a company sent an alta, so the firm's advisors (every active member) are told by mail,
 * through the mail outbox (queued in the alta's own transaction: no alta without its notice, and one
 * notice per alta by its cause key), with the link to the alta. A firm with nobody to tell queues nothing.
 */
export async function queueAltaReceivedNotice(
  trx: Transaction<Database>,
  alta: { id: string; groupId: string; companyName: string; values: FieldsValues },
  publicUrl: string,
  now: Date,
): Promise<boolean> {
  const members = await trx.selectFrom('users').select('email').where('group_id', '=', alta.groupId).where('disabled_at', 'is', null).orderBy('created_at').orderBy('id').execute();
  if (members.length === 0) return false;
  const worker = workerName(alta.values) || 'un trabajador';
  const day = formatAltaDay(alta.values[FIELD.fechaAlta]);
  const link = altaLink(publicUrl, alta.id);
  return enqueueMail(
    trx,
    {
      groupId: alta.groupId,
      userId: null,
      causeKey: altaReceivedCause(alta.id),
      runId: null,
      kind: 'notice',
      accountId: null,
      transport: 'smtp',
      from: null,
      to: members.map((member) => member.email),
      subject: `Nueva alta de ${alta.companyName}: ${worker}`,
      body:
        `Hola:\n\n${alta.companyName} ha enviado el alta de ${worker}${day ? ` con fecha de alta ${day}` : ''}.\n\n` +
        `Revísala y regístrala en Sistema RED en el enlace:\n${link}\n`,
      replyTo: null,
      senderName: null,
      attachments: [],
    },
    now,
  );
}
