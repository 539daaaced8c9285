import type { Machine, MachineConfig } from '#shared/api/machines.ts';
import type { MailAccount } from '#shared/api/mail.ts';

/** Machines, their email configurations and the firm's linked mailboxes, for the 'Enviar resultado por email' tests. */

export function emailConfig(id: string, name: string, email: string, provider: 'google' | 'microsoft', overrides: Partial<MachineConfig> = {}): MachineConfig {
  return {
    _id: id, name, cccList: [], createdAt: '2025-01-01T00:00:00Z', error: null,
    emailSettings: { subject: 'Resultado de [[FLOW_NAME]]', body: 'Adjuntamos el resultado.', provider, email },
    ...overrides,
  };
}

export function machineWith(id: string, configs: MachineConfig[]): Machine {
  return {
    _id: id, name: `PC-${id}`, savedAs: '', machineHashCode: id.padEnd(64, '0'), sync: false, shared: false, mine: true,
    owner: { email: 'ana@asesoria.es', name: 'Ana' }, certificates: [], configs, lastSyncAt: null, linked: true, online: true,
    lastSeenAt: null, createdAt: '2025-01-01T00:00:00Z',
  };
}

export function mailAccount(provider: 'google' | 'microsoft', email: string, overrides: Partial<MailAccount> = {}): MailAccount {
  return {
    _id: `account-${email}`, provider, email, status: 'linked', problem: null, mine: true,
    linkedBy: { name: 'Ana', email: 'ana@asesoria.es' }, linkedAt: '2025-01-01T00:00:00Z', lastUsedAt: null,
    ...overrides,
  };
}

/** The usual case: a Gmail config and an Outlook config whose account needs re-linking, and one broken config. */
export const mailMachines = [
  machineWith('m1', [
    emailConfig('cfg-gmail', 'Resultados clientes', 'asesoria@gmail.com', 'google'),
    emailConfig('cfg-ccc', 'Solo CCC', 'x@x.es', 'google', { emailSettings: null }),
  ]),
  machineWith('m2', [
    emailConfig('cfg-outlook', 'Avisos', 'avisos@asesoria.es', 'microsoft'),
    emailConfig('cfg-broken', 'Rota', 'rota@asesoria.es', 'google', { emailSettings: null, error: 'La configuración de correo guardada no es válida' }),
  ]),
];

export const mailAccounts = [
  mailAccount('google', 'Asesoria@gmail.com'),
  mailAccount('microsoft', 'avisos@asesoria.es', { status: 'needs_relink', problem: 'La cuenta de correo necesita volver a conectarse: el proveedor ha retirado el permiso.' }),
];
