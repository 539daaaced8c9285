import { formatMadridDateTime } from '#shared/time/madrid.ts';

/** The texts of the notice a scheduled or remote run's user gets when it did not end well. */

export type NoticeReason = 'failed' | 'aborted' | 'refused';

const WHAT: Record<NoticeReason, string> = {
  failed: 'ha fallado',
  aborted: 'se ha interrumpido',
  refused: 'no se ha lanzado por falta de créditos',
};

export interface NoticeFacts {
  robot: string;
  reason: NoticeReason;
  /** The run's own message ('Robot interrumpido', the robot's error…); null when it left none. */
  message: string | null;
  scheduled: boolean;
  machineName: string | null;
  at: Date;
  /** The run in the web app's history. */
  link: string;
  userName: string;
}

export function noticeSubject(facts: NoticeFacts): string {
  return `Aviso de AutoAsesor: ${facts.robot} ${WHAT[facts.reason]}`.replace(/[\r\n]+/g, ' ').slice(0, 300);
}

export function noticeText(facts: NoticeFacts): string {
  const how = facts.scheduled ? 'programada' : 'remota';
  const where = facts.machineName ? ` en ${facts.machineName}` : '';
  return [
    `Hola, ${facts.userName}:`,
    '',
    `La ejecución ${how} de «${facts.robot}»${where} del ${formatMadridDateTime(facts.at)} (hora de Madrid) ${WHAT[facts.reason]}.`,
    '',
    `Motivo: ${facts.message?.trim() || 'el robot no indicó ninguno'}`,
    '',
    `Puedes ver la ejecución en el historial: ${facts.link}`,
    '',
    'Este aviso se envía una sola vez por ejecución.',
  ].join('\n');
}
