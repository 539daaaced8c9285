import {
  expiringResponseSchema, machineConfigSchema, machineConfigsResponseSchema, machineSchema, machinesPaths, machinesResponseSchema,
  scriptSettingSchema, scriptSettingsResponseSchema,
} from '#shared/api/machines.ts';
import type {
  CertificatesSyncRequest, ExpiringResponse, Machine, MachineConfig, MachineConfigRequest, MachineUpdateRequest,
  ScriptSetting, ScriptSettingRequest,
} from '#shared/api/machines.ts';
import { deviceLinkSchema, devicesPaths } from '#shared/api/devices.ts';
import type { DeviceLink, DeviceLinkRequest } from '#shared/api/devices.ts';
import { pathFor } from '#shared/api/flows.ts';
import { baseApi } from './baseApi.ts';

/**
 * Machines, their synced certificates and configs, the expiry radar and script settings
 * (shared/api/machines.ts). Every change invalidates 'Machines', so cards and the radar refresh together.
 */
export const machinesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Machines', 'ScriptSettings'] }).injectEndpoints({
  endpoints: (build) => ({
    machines: build.query<Machine[], { machineHashCode?: string } | void>({
      query: (filter) =>
        filter?.machineHashCode ? `${machinesPaths.machines}?machineHashCode=${filter.machineHashCode}` : machinesPaths.machines,
      transformResponse: (response: unknown) => machinesResponseSchema.parse(response).items,
      providesTags: ['Machines'],
    }),
    /** Registers this PC if new and replaces its synced certificates (an empty list unsyncs them all). */
    syncCertificates: build.mutation<Machine, { machineName: string; request: CertificatesSyncRequest }>({
      query: ({ machineName, request }) => ({
        url: `${machinesPaths.certificates}?machineName=${encodeURIComponent(machineName)}`,
        method: 'POST',
        body: request,
      }),
      transformResponse: (response: unknown) => machineSchema.parse(response),
      invalidatesTags: ['Machines'],
    }),
    updateMachine: build.mutation<Machine, { id: string; changes: MachineUpdateRequest }>({
      query: ({ id, changes }) => ({ url: pathFor(machinesPaths.machine, { id }), method: 'PATCH', body: changes }),
      transformResponse: (response: unknown) => machineSchema.parse(response),
      invalidatesTags: ['Machines'],
    }),
    deleteMachine: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(machinesPaths.machine, { id }), method: 'DELETE' }),
      invalidatesTags: ['Machines'],
    }),
    createMachineConfig: build.mutation<MachineConfig, { machineId: string; config: MachineConfigRequest }>({
      query: ({ machineId, config }) => ({ url: pathFor(machinesPaths.machineConfigs, { id: machineId }), method: 'POST', body: config }),
      transformResponse: (response: unknown) => machineConfigSchema.parse(response),
      invalidatesTags: ['Machines'],
    }),
    /** The firm's own configs, on no device (issue 43): any robot of the firm sends with them. */
    firmConfigs: build.query<MachineConfig[], void>({
      query: () => machinesPaths.firmConfigs,
      transformResponse: (response: unknown) => machineConfigsResponseSchema.parse(response).items,
      providesTags: ['Machines'],
    }),
    createFirmConfig: build.mutation<MachineConfig, MachineConfigRequest>({
      query: (config) => ({ url: machinesPaths.firmConfigs, method: 'POST', body: config }),
      transformResponse: (response: unknown) => machineConfigSchema.parse(response),
      invalidatesTags: ['Machines'],
    }),
    /** A device's or the firm's config, replaced in place. */
    updateMachineConfig: build.mutation<MachineConfig, { configId: string; config: MachineConfigRequest }>({
      query: ({ configId, config }) => ({ url: pathFor(machinesPaths.machineConfig, { configId }), method: 'PUT', body: config }),
      transformResponse: (response: unknown) => machineConfigSchema.parse(response),
      invalidatesTags: ['Machines'],
    }),
    deleteMachineConfig: build.mutation<void, string>({
      query: (configId) => ({ url: pathFor(machinesPaths.machineConfig, { configId }), method: 'DELETE' }),
      invalidatesTags: ['Machines'],
    }),
    expiringCertificates: build.query<ExpiringResponse, { days?: number } | void>({
      query: (options) => `${machinesPaths.certificatesExpiring}?days=${options?.days ?? 60}`,
      transformResponse: (response: unknown) => expiringResponseSchema.parse(response),
      providesTags: ['Machines'],
    }),
    scriptSettings: build.query<ScriptSetting[], string>({
      query: (flowId) => pathFor(machinesPaths.scriptSettings, { flowId }),
      transformResponse: (response: unknown) => scriptSettingsResponseSchema.parse(response).items,
      providesTags: ['ScriptSettings'],
    }),
    createScriptSetting: build.mutation<ScriptSetting, { flowId: string; setting: ScriptSettingRequest }>({
      query: ({ flowId, setting }) => ({ url: pathFor(machinesPaths.scriptSettings, { flowId }), method: 'POST', body: setting }),
      transformResponse: (response: unknown) => scriptSettingSchema.parse(response),
      invalidatesTags: ['ScriptSettings'],
    }),
    /**
     * Links this PC to the caller's account: registers it if new and issues a new device token (the
     * desktop keeps it through the LinkDevice bridge command; earlier tokens stop working).
     */
    linkDevice: build.mutation<DeviceLink, DeviceLinkRequest>({
      query: (request) => ({ url: devicesPaths.link, method: 'POST', body: request }),
      transformResponse: (response: unknown) => deviceLinkSchema.parse(response),
      invalidatesTags: ['Machines'],
    }),
    /** The machine's owner: its device token stops working at once (no more desktop or remote runs there). */
    revokeDeviceToken: build.mutation<void, string>({
      query: (machineId) => ({ url: pathFor(devicesPaths.deviceToken, { id: machineId }), method: 'DELETE' }),
      invalidatesTags: ['Machines'],
    }),
    deleteScriptSetting: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(machinesPaths.scriptSetting, { id }), method: 'DELETE' }),
      invalidatesTags: ['ScriptSettings'],
    }),
  }),
});

export const {
  useMachinesQuery, useSyncCertificatesMutation, useUpdateMachineMutation, useDeleteMachineMutation,
  useCreateMachineConfigMutation, useDeleteMachineConfigMutation, useExpiringCertificatesQuery, useFirmConfigsQuery, useCreateFirmConfigMutation,
  useUpdateMachineConfigMutation,
  useScriptSettingsQuery, useCreateScriptSettingMutation, useDeleteScriptSettingMutation, useLinkDeviceMutation,
  useRevokeDeviceTokenMutation,
} = machinesApi;
