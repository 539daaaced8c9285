export { a3IncidentCode, leaveIncidentCode, A3_END_OF_LEAVE, type IncidentOptions, type WaitingPeriodFlagCode } from './incident.ts';
export { toA3SyncRecord, formatCcc, type A3SyncRecord, type A3SyncOptions } from './sync-record.ts';
