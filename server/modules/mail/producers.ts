import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { z } from 'zod/mini';
import { MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE, MAIL_CONFIG_NOT_USABLE_MESSAGE, emailResultValueSchema } from '#shared/api/mail.ts';
import { renderMailSubject, renderMailTemplate, runResultText } from '#shared/mail/template.ts';
import { madridDayKey } from '#shared/time/madrid.ts';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import type { Database } from '../../db/schema.ts';
import { emailConfigAccount } from './account-queries.ts';
import { enqueueMail, recordUnsendable, type NewMail } from './outbox.ts';
import { noticeSubject, noticeText, type NoticeReason } from './notices.ts';
import { parseJson } from '../../db/json-column.ts';

const DAY_MS = 86_400_000;
/** Runs of each kind looked at per pass. */
const PASS_BATCH = 200;
/** Result runs whose outputs the history shows: a Success, and a WrongInput that returns the checked file. */
const RESULT_MAILED = ['Success', 'WrongInput'];

export const resultCause = (runId: string) => `run-result:${runId}`;
export const noticeCause = (runId: string) => `run-notice:${runId}`;

export interface ProducerOptions {
  db: Kysely<Database>;
  now: () => Date;
  /** The web app's base URL without a trailing slash (links to the run's history). */
  publicUrl: string;
  /** Flows that offer 'Enviar resultado por email': flow id -> the key of their EmailResult input. */
  emailResultInputs: ReadonlyMap<string, string>;
}

/** Which input of each flow is its 'Enviar resultado por email' (template EmailResult), if any. */
export function emailResultInputsOf(definitions: Iterable<FlowDefinition>): Map<string, string> {
  const inputs = new Map<string, string>();
  for (const definition of definitions) {
    const input = definition.sectionSetup.builder.flatMap((section) => section.builder).find((candidate) => candidate.template === 'EmailResult');
    if (input) inputs.set(definition.id, input.key);
  }
  return inputs;
}

interface RunRow {
  id: string;
  group_id: string;
  user_id: string;
  flow_id: string;
  flow_name: string;
  result: string | null;
  message: string | null;
  inputs: string;
  scheduled: number;
  machine_name: string | null;
  finished_at: string | null;
  successful_iterations: number;
  total_iterations: number;
  cost: number;
}


/**
 * Queues what recently finished runs cause: the result mail of a run launched with 'Enviar resultado
 * por email', and the notice of a scheduled or remote run that failed, was aborted (299) or refused
 * (402). Looks back a day and is idempotent by cause key, so a crash between a run's close and this
 * pass only delays the mail to the next pass.
 */
/**
 * The run in the web app's history: the history has no page per run, so the link filters it to this
 * robot's scheduled and remote runs of that day (Madrid), where the run is listed.
 */
export function historyLink(publicUrl: string, run: Pick<RunRow, 'flow_id' | 'finished_at'>): string {
  const day = madridDayKey(new Date(run.finished_at ?? Date.now()));
  return `${publicUrl}/flows?${new URLSearchParams({ robot: run.flow_id, tipo: 'scheduled', desde: day, hasta: day }).toString()}`;
}

/** A result mail that cannot even be written (its inputs do not read back): only its row, to say why. */
function unsendableResult(run: RunRow): NewMail {
  return {
    groupId: run.group_id, userId: run.user_id, causeKey: resultCause(run.id), runId: run.id, kind: 'result', accountId: null, transport: 'smtp',
    from: null, to: [], subject: `Resultado de ${run.flow_name}`, body: '', replyTo: null, senderName: null, attachments: [],
  };
}

export class MailProducers {
  constructor(private readonly options: ProducerOptions) {}

  async produce(): Promise<number> {
    const { db, now } = this.options;
    const since = new Date(now().getTime() - DAY_MS).toISOString();
    const base = db
      .selectFrom('flow_runs')
      .select(['id', 'group_id', 'user_id', 'flow_id', 'flow_name', 'result', 'message', 'inputs', 'scheduled', 'machine_name', 'finished_at', 'successful_iterations', 'total_iterations', 'cost'])
      .where('finished_at', '>=', since)
      // `state || ''` keeps SQLite off flow_runs_state_idx: without statistics it prefers that equality,
      // which at a million runs walks nearly all of them every pass; the last day's runs by
      // flow_runs_finished_idx are a few thousand.
      .where(sql<string>`flow_runs.state || ''`, '=', 'finished');
    // Only runs no mail of that kind was queued for (mail_outbox_run_idx), a bounded batch per pass: a
    // backlog drains over the next passes instead of loading a day of runs every 5 seconds.
    const notQueued = (kind: 'result' | 'notice') => (eb: ExpressionBuilder<Database, 'flow_runs'>) =>
      eb.not(eb.exists(eb.selectFrom('mail_outbox').select('mail_outbox.id').whereRef('mail_outbox.run_id', '=', 'flow_runs.id').where('mail_outbox.kind', '=', kind)));
    const resultFlows = [...this.options.emailResultInputs.keys()];
    const [results, notices] = await Promise.all([
      // Only flows that offer it, and the JSON the launch stored has no spaces: a cheap filter before parsing.
      resultFlows.length === 0
        ? Promise.resolve([])
        : base.where('flow_id', 'in', resultFlows).where('result', 'in', RESULT_MAILED).where('inputs', 'like', '%"recipients":[%').where(notQueued('result')).orderBy('finished_at').limit(PASS_BATCH).execute(),
      base
        .where((eb) => eb.or([eb('scheduled', '=', 1), eb('remote', '=', 1)]))
        .where('stopped_by_user', '=', 0)
        .where((eb) => eb.or([eb('result', 'in', ['Fail', 'NotEnoughSlans']), eb.and([eb('result', '=', 'FlowAborted'), eb('launch_status', '=', 299)])]))
        .where(notQueued('notice'))
        .orderBy('finished_at')
        .limit(PASS_BATCH)
        .execute(),
    ]);
    let queued = 0;
    for (const run of results) if (await this.result(run)) queued += 1;
    for (const run of notices) if (await this.notice(run)) queued += 1;
    return queued;
  }

  private async result(run: RunRow): Promise<boolean> {
    const { db, now } = this.options;
    const inputs = parseJson<Record<string, unknown> | null>(run.inputs, null);
    const key = this.options.emailResultInputs.get(run.flow_id) ?? '';
    const value = z.safeParse(emailResultValueSchema, inputs?.[key] ?? null);
    // Checked at launch, so this is a damaged row: recorded as failed, so it is not looked at every pass.
    if (!value.success || value.data === null) return recordUnsendable(db, unsendableResult(run), MAIL_CONFIG_NOT_USABLE_MESSAGE, now());
    const { configId, recipients } = value.data;
    const found = await emailConfigAccount(db, run.group_id, configId);
    const settings = found?.settings ?? null;
    const account = found?.account ?? null;
    const files = await db.selectFrom('stored_files').select(['id', 'name', 'size']).where('run_id', '=', run.id).where('kind', '=', 'output').where('expired_at', 'is', null).orderBy('created_at').orderBy('name').execute();
    const group = await db.selectFrom('groups').select('name').where('id', '=', run.group_id).executeTakeFirst();
    // [[RESULTADO]] in the preview's words, from the run's figures (not its message, which a success leaves empty).
    const result = runResultText({
      result: run.result ?? '', message: run.message, checked: Number(run.total_iterations), successful: Number(run.successful_iterations), charged: Number(run.cost),
    });
    const values = { robot: run.flow_name, result, files: files.map((file) => file.name), firm: group?.name ?? '' };
    const at = now();
    const mail: NewMail = {
      groupId: run.group_id,
      userId: run.user_id,
      causeKey: resultCause(run.id),
      runId: run.id,
      kind: 'result',
      accountId: account?.id ?? null,
      transport: settings?.provider ?? 'smtp',
      from: settings?.email ?? null,
      to: recipients,
      subject: settings ? renderMailSubject(settings.subject, values, at) : `Resultado de ${run.flow_name}`,
      body: settings ? renderMailTemplate(settings.body, values, at) : '',
      replyTo: settings?.replyTo || null,
      senderName: settings?.senderName || null,
      attachments: files.map((file) => ({ fileId: file.id, name: file.name, size: Number(file.size) })),
    };
    if (!settings || !account) return recordUnsendable(db, mail, MAIL_CONFIG_NOT_USABLE_MESSAGE, at);
    if (account.status !== 'linked') return recordUnsendable(db, mail, MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE, at);
    return enqueueMail(db, mail, at);
  }

  private async notice(run: RunRow): Promise<boolean> {
    const { db, now, publicUrl } = this.options;
    const user = await db.selectFrom('users').select(['email', 'name']).where('id', '=', run.user_id).executeTakeFirst();
    if (!user) return false;
    // The user's own mailbox first, then any of the firm's, else the server's SMTP.
    const account = await db
      .selectFrom('mail_accounts')
      .select(['id', 'provider', 'email'])
      .where('group_id', '=', run.group_id)
      .where('status', '=', 'linked')
      .orderBy((eb) => eb.case().when('user_id', '=', run.user_id).then(0).else(1).end())
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    const reason: NoticeReason = run.result === 'NotEnoughSlans' ? 'refused' : run.result === 'FlowAborted' ? 'aborted' : 'failed';
    const facts = {
      robot: run.flow_name,
      reason,
      message: run.message,
      scheduled: run.scheduled === 1,
      machineName: run.machine_name,
      at: new Date(run.finished_at ?? now().toISOString()),
      link: historyLink(publicUrl, run),
      userName: user.name,
    };
    return enqueueMail(
      db,
      {
        groupId: run.group_id,
        userId: run.user_id,
        causeKey: noticeCause(run.id),
        runId: run.id,
        kind: 'notice',
        accountId: account?.id ?? null,
        transport: account?.provider ?? 'smtp',
        from: account?.email ?? null,
        to: [user.email],
        subject: noticeSubject(facts),
        body: noticeText(facts),
        replyTo: null,
        senderName: account ? 'AutoAsesor' : null,
        attachments: [],
      },
      now(),
    );
  }
}
