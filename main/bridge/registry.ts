import type { BridgeCommand } from '#shared/bridge/contract.ts';
import { bridgeCommands, isBridgeCommand } from '#shared/bridge/contract.ts';
import type { BridgeEnvelope } from '#shared/bridge/envelope.ts';
import { toFieldIssues } from '#shared/api/errors.ts';
import type { BridgeContext, Handler } from './context.ts';
import { BridgeFailure } from './context.ts';
import { Minimize } from './Minimize.ts';
import { Maximize } from './Maximize.ts';
import { CloseWindow } from './CloseWindow.ts';
import { GetMachineHashCode } from './GetMachineHashCode.ts';
import { CheckAppUpdate } from './CheckAppUpdate.ts';
import { GetCertificatesList } from './GetCertificatesList.ts';
import { SetCertificateFolder } from './SetCertificateFolder.ts';
import { UnlockCertificateFile } from './UnlockCertificateFile.ts';
import { LinkDevice } from './LinkDevice.ts';
import { UnlinkDevice } from './UnlinkDevice.ts';
import { GetDeviceStatus } from './GetDeviceStatus.ts';
import { LaunchFlow } from './LaunchFlow.ts';
import { OpenFolder } from './OpenFolder.ts';
import { OpenNativeSelectionDialog } from './OpenNativeSelectionDialog.ts';
import { GetAutopilot } from './GetAutopilot.ts';
import { SetAutopilotSwitch } from './SetAutopilotSwitch.ts';
import { SetAutopilotCertificates } from './SetAutopilotCertificates.ts';
import { DeleteAutopilotTask } from './DeleteAutopilotTask.ts';
import { SetAutopilotPanelOpen } from './SetAutopilotPanelOpen.ts';
import { GetFieFromSiltra } from './GetFieFromSiltra.ts';
import { RunFieRobot } from './RunFieRobot.ts';
import { GetForms } from './GetForms.ts';
import { SyncSubmissions } from './SyncSubmissions.ts';
import { SyncSubmissionsToA3 } from './SyncSubmissionsToA3.ts';
import { UpdateNotificationsList } from './UpdateNotificationsList.ts';
import { GetNotificationsFromDehu } from './GetNotificationsFromDehu.ts';
import { OAuthConnect } from './OAuthConnect.ts';
import { StartMacroRecording } from './StartMacroRecording.ts';
import { GetMacroRecording } from './GetMacroRecording.ts';
import { StopMacroRecording } from './StopMacroRecording.ts';
import { PreviewScrape } from './PreviewScrape.ts';

/** One handler per contract command: a command without a handler does not compile. */
export const handlers: { [C in BridgeCommand]: Handler<C> } = {
  Minimize,
  Maximize,
  CloseWindow,
  GetMachineHashCode,
  CheckAppUpdate,
  GetCertificatesList,
  SetCertificateFolder,
  UnlockCertificateFile,
  LinkDevice,
  UnlinkDevice,
  GetDeviceStatus,
  LaunchFlow,
  OpenFolder,
  OpenNativeSelectionDialog,
  GetAutopilot,
  SetAutopilotSwitch,
  SetAutopilotCertificates,
  DeleteAutopilotTask,
  SetAutopilotPanelOpen,
  GetFieFromSiltra,
  RunFieRobot,
  GetForms,
  SyncSubmissions,
  SyncSubmissionsToA3,
  UpdateNotificationsList,
  GetNotificationsFromDehu,
  OAuthConnect,
  StartMacroRecording,
  GetMacroRecording,
  StopMacroRecording,
  PreviewScrape,
};

/**
 * The single entry of every transport (Electron IPC, agent socket): parses the arguments with the
 * contract, runs the handler, checks its result, and never throws.
 */
export async function dispatch(command: unknown, rawArgs: unknown, ctx: BridgeContext): Promise<BridgeEnvelope<unknown>> {
  if (!isBridgeCommand(command)) {
    return { ok: false, error: { code: 'UNKNOWN_COMMAND', message: `Orden desconocida: ${String(command).slice(0, 60)}` } };
  }
  return run(command, rawArgs ?? {}, ctx);
}

async function run<C extends BridgeCommand>(command: C, rawArgs: unknown, ctx: BridgeContext): Promise<BridgeEnvelope<unknown>> {
  const schemas = bridgeCommands[command];
  const args = schemas.args.safeParse(rawArgs);
  if (!args.success) {
    const detail = toFieldIssues(args.error).map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    return { ok: false, error: { code: 'BAD_ARGS', message: `Argumentos no válidos para ${command}. ${detail}` } };
  }
  try {
    const handler = handlers[command] as Handler<C>;
    const result = await handler(args.data as Parameters<Handler<C>>[0], ctx);
    return { ok: true, data: schemas.result.parse(result) };
  } catch (error) {
    if (error instanceof BridgeFailure) return { ok: false, error: { code: error.code, message: error.message } };
    return { ok: false, error: { code: 'FAILED', message: `No se ha podido completar ${command}.` } };
  }
}
