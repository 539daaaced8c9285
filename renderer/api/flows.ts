import {
  catalogueResponseSchema, executionStateSchema, flowLogDetailSchema, flowResponseSchema, flowlogReportSchema,
  flowlogResponseSchema, flowlogStatsSchema, flowsPaths, pathFor, scheduledFlowSchema, schedulesResponseSchema,
  uploadColumnsResponseSchema,
} from '#shared/api/flows.ts';
import type {
  ExecutionRequest, ExecutionStateResponse, FlowLogDetail, FlowSummary, FlowlogQuery, FlowlogResponse, FlowlogStats,
  ScheduleRequest, ScheduledFlow, UploadColumns,
} from '#shared/api/flows.ts';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import { baseApi } from './baseApi.ts';

const withQuery = (path: string, query: Record<string, string | number | boolean | undefined>): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};

/**
 * Flows: the catalogue, executions, the run history and schedules (shared/api/flows.ts). Uploads go
 * through XMLHttpRequest in the launcher instead, for their progress events.
 */
export const flowsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Flows', 'FlowLogs', 'Schedules'] }).injectEndpoints({
  endpoints: (build) => ({
    catalogue: build.query<FlowSummary[], void>({
      query: () => flowsPaths.catalogue,
      transformResponse: (response: unknown) => catalogueResponseSchema.parse(response).items,
      providesTags: ['Flows'],
    }),
    flow: build.query<FlowDefinition, string>({
      query: (id) => pathFor(flowsPaths.flow, { id }),
      transformResponse: (response: unknown) => flowResponseSchema.parse(response),
      providesTags: ['Flows'],
    }),
    uploadColumns: build.query<UploadColumns, string>({
      query: (id) => pathFor(flowsPaths.uploadColumns, { id }),
      transformResponse: (response: unknown) => uploadColumnsResponseSchema.parse(response),
    }),
    /**
     * Starts a run: 202 with its state; 402/400 come back as errors. A desktop flow names its machine
     * (machineId), with localLaunch when this PC then starts it itself (LaunchFlow).
     */
    execute: build.mutation<ExecutionStateResponse, { flowId: string; request: ExecutionRequest }>({
      query: ({ flowId, request }) => ({ url: pathFor(flowsPaths.execution, { flowId }), method: 'POST', body: request }),
      transformResponse: (response: unknown) => executionStateSchema.parse(response),
    }),
    /** Long-polls a run's state (up to `wait` seconds); the launcher calls it until `output` is set. */
    executionState: build.query<ExecutionStateResponse, { token: string; wait?: number; since?: number }>({
      query: ({ token, wait, since }) => withQuery(pathFor(flowsPaths.executionState, { token }), { wait, since }),
      transformResponse: (response: unknown) => executionStateSchema.parse(response),
      keepUnusedDataFor: 0,
    }),
    /**
     * One long poll of a run's state, as a mutation: every call is its own request, with no cache entry
     * to share with an earlier identical poll (or to lose when nothing subscribes to it).
     */
    pollExecutionState: build.mutation<ExecutionStateResponse, { token: string; wait?: number; since?: number }>({
      query: ({ token, wait, since }) => withQuery(pathFor(flowsPaths.executionState, { token }), { wait, since }),
      transformResponse: (response: unknown) => executionStateSchema.parse(response),
    }),
    stopExecution: build.mutation<ExecutionStateResponse, string>({
      query: (token) => ({ url: pathFor(flowsPaths.executionStop, { token }), method: 'POST' }),
      transformResponse: (response: unknown) => executionStateSchema.parse(response),
      invalidatesTags: ['FlowLogs', 'Subscription'],
    }),
    flowlog: build.query<FlowlogResponse, FlowlogQuery>({
      query: (query) => withQuery(flowsPaths.flowlog, { ...query }),
      transformResponse: (response: unknown) => flowlogResponseSchema.parse(response),
      providesTags: ['FlowLogs'],
    }),
    /** A run with the first page of its log lines (the server's default page size). */
    flowlogDetail: build.query<FlowLogDetail, string>({
      query: (id) => pathFor(flowsPaths.flowlogOne, { id }),
      transformResponse: (response: unknown) => flowLogDetailSchema.parse(response),
      providesTags: ['FlowLogs'],
    }),
    /** The next page of a run's log lines: those after `after` (the last page's logNext). 'Cargar más líneas'. */
    flowlogLogPage: build.query<FlowLogDetail, { id: string; after: number }>({
      query: ({ id, after }) => withQuery(pathFor(flowsPaths.flowlogOne, { id }), { after }),
      transformResponse: (response: unknown) => flowLogDetailSchema.parse(response),
      keepUnusedDataFor: 0,
    }),
    flowlogStats: build.query<FlowlogStats, void>({
      query: () => flowsPaths.flowlogStats,
      transformResponse: (response: unknown) => flowlogStatsSchema.parse(response),
      providesTags: ['FlowLogs'],
    }),
    flowlogReport: build.mutation<{ filename: string; base64: string }, FlowlogQuery>({
      query: (query) => withQuery(flowsPaths.flowlogReport, { ...query }),
      transformResponse: (response: unknown) => flowlogReportSchema.parse(response),
    }),
    schedules: build.query<ScheduledFlow[], { user?: string; machineHash?: string }>({
      query: (query) => withQuery(flowsPaths.schedules, query),
      transformResponse: (response: unknown) => schedulesResponseSchema.parse(response).items,
      providesTags: ['Schedules'],
    }),
    createSchedule: build.mutation<ScheduledFlow, { flowId: string; request: ScheduleRequest }>({
      query: ({ flowId, request }) => ({ url: pathFor(flowsPaths.scheduleCreate, { flowId }), method: 'POST', body: request }),
      transformResponse: (response: unknown) => scheduledFlowSchema.parse(response),
      invalidatesTags: ['Schedules'],
    }),
    deleteSchedule: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(flowsPaths.schedule, { id }), method: 'DELETE' }),
      transformResponse: () => undefined,
      invalidatesTags: ['Schedules'],
    }),
  }),
});

export const {
  useCatalogueQuery, useFlowQuery, useUploadColumnsQuery, useExecuteMutation, useLazyExecutionStateQuery,
  useStopExecutionMutation, useFlowlogQuery, useFlowlogDetailQuery, useLazyFlowlogDetailQuery, useLazyFlowlogLogPageQuery, useFlowlogStatsQuery,
  useFlowlogReportMutation, useSchedulesQuery, useCreateScheduleMutation, useDeleteScheduleMutation,
} = flowsApi;
