export * from './definition.ts';
export type * from './robot.ts';
