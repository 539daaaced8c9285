import type { FastifyInstance } from 'fastify';
import {
  MACHINE_DELETE_FAILED_MESSAGE, certificatesSyncQuerySchema, certificatesSyncRequestSchema, expiringQuerySchema, expiringResponseSchema,
  machineConfigIdParamsSchema, machineConfigRequestSchema, machineConfigSchema, machineConfigsResponseSchema, machineIdParamsSchema, machineSchema, machineUpdateRequestSchema,
  machinesPaths, machinesQuerySchema, machinesResponseSchema, scriptFlowParamsSchema, scriptSettingIdParamsSchema, scriptSettingRequestSchema,
  scriptSettingSchema, scriptSettingsResponseSchema,
} from '#shared/api/machines.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import type { FlowDirectory } from '../flows/directory.ts';
import { requireVisibleFlow } from '../flows/errors.ts';
import { expiringCertificates, syncCertificates } from './certificates.ts';
import { createConfig, deleteConfig, firmConfigs, updateConfig } from './configs.ts';
import { createScriptSetting, deleteScriptSetting, listScriptSettings, parseScriptSetting } from './script-settings.ts';
import { deleteMachine, findMachine, listMachines, updateMachine } from './service.ts';

/**
 * Spec §7 machines, certificates and scripts, always within the caller's group: another group's ids,
 * and another member's private machine, answer 404 as if they did not exist.
 */
export function registerMachinesRoutes(app: FastifyInstance, ctx: AppContext, flows: FlowDirectory): void {
  const certificatesSchema = routeSchema({
    tag: 'machines',
    summary: 'Register a machine if new and replace its synced certificates',
    querystring: certificatesSyncQuerySchema,
    body: certificatesSyncRequestSchema,
    response: { 200: machineSchema, 201: machineSchema },
  });
  app.post(machinesPaths.certificates, { schema: certificatesSchema }, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { machineName } = parseInput(certificatesSyncQuerySchema, request.query);
    const body = parseInput(certificatesSyncRequestSchema, request.body);
    const { machineId, created } = await syncCertificates(ctx.db, member, machineName, body, ctx.now());
    return reply.status(created ? 201 : 200).send(await findMachine(ctx.db, member, machineId, ctx.now()));
  });

  const expiringSchema = routeSchema({
    tag: 'machines',
    summary: 'Certificates of the visible machines expiring within `days`',
    querystring: expiringQuerySchema,
    response: { 200: expiringResponseSchema },
  });
  app.get(machinesPaths.certificatesExpiring, { schema: expiringSchema }, async (request) => {
    const member = await requireSession(request, ctx);
    const { days } = parseInput(expiringQuerySchema, request.query);
    return { items: await expiringCertificates(ctx.db, member, days, ctx.now()), days };
  });

  const machinesSchema = routeSchema({ tag: 'machines', summary: "The caller's machines, then the firm's shared ones", querystring: machinesQuerySchema, response: { 200: machinesResponseSchema } });
  app.get(machinesPaths.machines, { schema: machinesSchema }, async (request) => {
    const member = await requireSession(request, ctx);
    return { items: await listMachines(ctx.db, member, parseInput(machinesQuerySchema, request.query), ctx.now()) };
  });

  const updateSchema = routeSchema({ tag: 'machines', summary: 'Rename or share a machine (its owner)', params: machineIdParamsSchema, body: machineUpdateRequestSchema, response: { 200: machineSchema } });
  app.patch(machinesPaths.machine, { schema: updateSchema }, async (request) => {
    const member = await requireSession(request, ctx);
    const { id } = parseInput(machineIdParamsSchema, request.params);
    const changes = parseInput(machineUpdateRequestSchema, request.body);
    return updateMachine(ctx.db, member, id, changes, ctx.now());
  });

  app.delete(machinesPaths.machine, { schema: routeSchema({ tag: 'machines', summary: 'Delete a machine', params: machineIdParamsSchema, response: { 204: null } }) }, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { id } = parseInput(machineIdParamsSchema, request.params);
    await deleteMachine(ctx.db, member, id).catch((error: unknown) => {
      if (error instanceof HttpError) throw error;
      request.log.error({ err: error }, 'No se ha podido eliminar un dispositivo');
      throw new HttpError(500, 'MACHINE_DELETE_FAILED', MACHINE_DELETE_FAILED_MESSAGE);
    });
    return reply.status(204).send();
  });

  const configSchema = routeSchema({ tag: 'machines', summary: 'Add a config to a machine', params: machineIdParamsSchema, body: machineConfigRequestSchema, response: { 201: machineConfigSchema } });
  app.post(machinesPaths.machineConfigs, { schema: configSchema }, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { id } = parseInput(machineIdParamsSchema, request.params);
    const body = parseInput(machineConfigRequestSchema, request.body);
    return reply.status(201).send(await createConfig(ctx.db, member, id, body, ctx.now()));
  });

  const updateConfigSchema = routeSchema({
    tag: 'machines', summary: "Edit a config: a device's or the firm's (name, CCC list, mail settings)", params: machineConfigIdParamsSchema, body: machineConfigRequestSchema, response: { 200: machineConfigSchema },
  });
  app.put(machinesPaths.machineConfig, { schema: updateConfigSchema }, async (request) => {
    const member = await requireSession(request, ctx);
    const { configId } = parseInput(machineConfigIdParamsSchema, request.params);
    const body = parseInput(machineConfigRequestSchema, request.body);
    return updateConfig(ctx.db, member, configId, body);
  });

  const firmConfigsSchema = routeSchema({ tag: 'machines', summary: "The firm's own configs, on no device (used by any of its robots, the server's included)", response: { 200: machineConfigsResponseSchema } });
  app.get(machinesPaths.firmConfigs, { schema: firmConfigsSchema }, async (request) => ({ items: await firmConfigs(ctx.db, await requireSession(request, ctx)) }));

  const newFirmConfigSchema = routeSchema({ tag: 'machines', summary: 'Add a config of the firm, on no device', body: machineConfigRequestSchema, response: { 201: machineConfigSchema } });
  app.post(machinesPaths.firmConfigs, { schema: newFirmConfigSchema }, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const body = parseInput(machineConfigRequestSchema, request.body);
    return reply.status(201).send(await createConfig(ctx.db, member, null, body, ctx.now()));
  });

  app.delete(machinesPaths.machineConfig, { schema: routeSchema({ tag: 'machines', summary: "Delete a machine's config", params: machineConfigIdParamsSchema, response: { 204: null } }) }, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { configId } = parseInput(machineConfigIdParamsSchema, request.params);
    await deleteConfig(ctx.db, member, configId);
    return reply.status(204).send();
  });

  const settingsSchema = routeSchema({ tag: 'machines', summary: "A flow's saved script settings", params: scriptFlowParamsSchema, response: { 200: scriptSettingsResponseSchema } });
  app.get(machinesPaths.scriptSettings, { schema: settingsSchema }, async (request) => {
    const { groupId, userId } = await requireSession(request, ctx);
    const { flowId } = parseInput(scriptFlowParamsSchema, request.params);
    // A firm's macro the user sees has settings like a built-in flow (issue 41).
    await requireVisibleFlow(flows, groupId, flowId, userId);
    return { items: await listScriptSettings(ctx.db, groupId, flowId) };
  });

  const newSettingSchema = routeSchema({ tag: 'machines', summary: 'Save a script setting for a flow', params: scriptFlowParamsSchema, body: scriptSettingRequestSchema, response: { 201: scriptSettingSchema } });
  app.post(machinesPaths.scriptSettings, { schema: newSettingSchema }, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { flowId } = parseInput(scriptFlowParamsSchema, request.params);
    await requireVisibleFlow(flows, member.groupId, flowId, member.userId);
    const setting = parseScriptSetting(request.body);
    return reply.status(201).send(await createScriptSetting(ctx.db, member, flowId, setting, ctx.now()));
  });

  app.delete(machinesPaths.scriptSetting, { schema: routeSchema({ tag: 'machines', summary: 'Delete a script setting', params: scriptSettingIdParamsSchema, response: { 204: null } }) }, async (request, reply) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(scriptSettingIdParamsSchema, request.params);
    await deleteScriptSetting(ctx.db, groupId, id);
    return reply.status(204).send();
  });
}
