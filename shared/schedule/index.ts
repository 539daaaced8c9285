export { DEFAULT_REPEAT, SCHEDULE_INTERVALS, nextRunDate, occurrence, repeatText } from './next-run.ts';
export type { ScheduleInterval } from './next-run.ts';
export { TODAY_GROUP_TITLE, groupTasksByDay, isForToday } from './tasks.ts';
export type { TaskDayGroup } from './tasks.ts';
export { SCHEDULER_MESSAGES, toScheduleTiming, validateSchedulerInput } from './input.ts';
export type { ScheduleRequestTiming, SchedulerField, SchedulerInput } from './input.ts';
