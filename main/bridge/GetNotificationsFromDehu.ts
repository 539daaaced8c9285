import type { Handler } from './context.ts';

/** 'Abrir': PeticionAcceso (comparecencia, with legal effect) once, then the notice, annexes and acuse stored on the server. */
export const GetNotificationsFromDehu: Handler<'GetNotificationsFromDehu'> = async ({ notificationId }, ctx) => ctx.dehu.open(notificationId);
