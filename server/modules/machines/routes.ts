import type { FastifyInstance } from 'fastify';
import {
  MACHINE_DELETE_FAILED_MESSAGE, certificatesSyncQuerySchema, certificatesSyncRequestSchema, expiringQuerySchema,
  machineConfigIdParamsSchema, machineConfigRequestSchema, machineIdParamsSchema, machineUpdateRequestSchema, machinesPaths,
  machinesQuerySchema, scriptFlowParamsSchema, scriptSettingIdParamsSchema,
} from '#shared/api/machines.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import { requireFlow } from '../flows/errors.ts';
import { expiringCertificates, syncCertificates } from './certificates.ts';
import { createConfig, deleteConfig } from './configs.ts';
import { createScriptSetting, deleteScriptSetting, listScriptSettings, parseScriptSetting } from './script-settings.ts';
import { deleteMachine, findMachine, listMachines, updateMachine } from './service.ts';

/**
 * Spec §7 machines, certificates and scripts, always within the caller's group: another group's ids,
 * and another member's private machine, answer 404 as if they did not exist.
 */
export function registerMachinesRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(machinesPaths.certificates, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { machineName } = parseInput(certificatesSyncQuerySchema, request.query);
    const body = parseInput(certificatesSyncRequestSchema, request.body);
    const { machineId, created } = await syncCertificates(ctx.db, member, machineName, body, ctx.now());
    return reply.status(created ? 201 : 200).send(await findMachine(ctx.db, member, machineId, ctx.now()));
  });

  app.get(machinesPaths.certificatesExpiring, async (request) => {
    const member = await requireSession(request, ctx);
    const { days } = parseInput(expiringQuerySchema, request.query);
    return { items: await expiringCertificates(ctx.db, member, days, ctx.now()), days };
  });

  app.get(machinesPaths.machines, async (request) => {
    const member = await requireSession(request, ctx);
    return { items: await listMachines(ctx.db, member, parseInput(machinesQuerySchema, request.query), ctx.now()) };
  });

  app.patch(machinesPaths.machine, async (request) => {
    const member = await requireSession(request, ctx);
    const { id } = parseInput(machineIdParamsSchema, request.params);
    const changes = parseInput(machineUpdateRequestSchema, request.body);
    return updateMachine(ctx.db, member, id, changes, ctx.now());
  });

  app.delete(machinesPaths.machine, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { id } = parseInput(machineIdParamsSchema, request.params);
    await deleteMachine(ctx.db, member, id).catch((error: unknown) => {
      if (error instanceof HttpError) throw error;
      request.log.error({ err: error }, 'No se ha podido eliminar un dispositivo');
      throw new HttpError(500, 'MACHINE_DELETE_FAILED', MACHINE_DELETE_FAILED_MESSAGE);
    });
    return reply.status(204).send();
  });

  app.post(machinesPaths.machineConfigs, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { id } = parseInput(machineIdParamsSchema, request.params);
    const body = parseInput(machineConfigRequestSchema, request.body);
    return reply.status(201).send(await createConfig(ctx.db, member, id, body, ctx.now()));
  });

  app.delete(machinesPaths.machineConfig, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { configId } = parseInput(machineConfigIdParamsSchema, request.params);
    await deleteConfig(ctx.db, member, configId);
    return reply.status(204).send();
  });

  app.get(machinesPaths.scriptSettings, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { flowId } = parseInput(scriptFlowParamsSchema, request.params);
    requireFlow(ctx.catalogue, flowId);
    return { items: await listScriptSettings(ctx.db, groupId, flowId) };
  });

  app.post(machinesPaths.scriptSettings, async (request, reply) => {
    const member = await requireSession(request, ctx);
    const { flowId } = parseInput(scriptFlowParamsSchema, request.params);
    requireFlow(ctx.catalogue, flowId);
    const setting = parseScriptSetting(request.body);
    return reply.status(201).send(await createScriptSetting(ctx.db, member, flowId, setting, ctx.now()));
  });

  app.delete(machinesPaths.scriptSetting, async (request, reply) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(scriptSettingIdParamsSchema, request.params);
    await deleteScriptSetting(ctx.db, groupId, id);
    return reply.status(204).send();
  });
}
