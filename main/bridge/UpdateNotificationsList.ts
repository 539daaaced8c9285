import type { Handler } from './context.ts';

/** 'Actualizar notificaciones': Localiza + LocalizaRealizadas for this PC's watched certificates (or those listed), each one's progress on the server. */
export const UpdateNotificationsList: Handler<'UpdateNotificationsList'> = async ({ certificates }, ctx) =>
  ctx.dehu.update(certificates === undefined ? {} : { certificates });
