import { userSessionValue } from '../../ui/userSessionValue.ts';

/**
 * The change of plan a cancel dropped (Stripe releases the schedule that held it), remembered for this
 * tab's session so that, after a reload, the page can still say it must be chosen again on resuming.
 */
const droppedPlan = userSessionValue('autoasesor.droppedPlanChange');

/** The plan's name, when this user's cancel dropped a change in this session. */
export const readDroppedChange = (uid: string): string | null => droppedPlan.read(uid);

export function rememberDroppedChange(uid: string, plan: string): string {
  droppedPlan.remember(uid, plan);
  return plan;
}

export const forgetDroppedChange = (): void => droppedPlan.forget();
