/**
 * `npm run agent -- --install-service` / `--uninstall-service`: starts the agent with the user's session
 * (and, on Linux with lingering, with the machine), so an office PC takes remote launches unattended.
 *   Linux   a systemd --user unit (~/.config/systemd/user/autoasesor-agent.service); prints how to enable it.
 *   Windows a logon task (schtasks /SC ONLOGON) that runs a small .cmd with the agent's variables.
 *   macOS   a LaunchAgent (~/Library/LaunchAgents/es.autoasesor.agente.plist); prints how to load it.
 * Plans are built as data (files, commands, notes) so tests check them with a temporary HOME and
 * never touch the real service managers.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, posix, resolve, win32 } from 'node:path';
import { userInfo } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SYSTEMD_UNIT = 'autoasesor-agent.service';
export const WINDOWS_TASK = 'AutoAsesor\\Agente';
export const LAUNCH_AGENT_LABEL = 'es.autoasesor.agente';

/** Variables the agent reads that the service takes from the shell it was installed from, when set. */
const PASSED_VARIABLES = ['AUTOASESOR_ROBOT_SETTINGS', 'CHROMIUM_PATH', 'AUTOASESOR_NSS_DB', 'AUTOASESOR_UPDATE_URL', 'AGENT_PORT', 'AGENT_ALLOWED_ORIGINS'];

export interface ServiceSetup {
  platform: NodeJS.Platform;
  home: string;
  user: string;
  /** The user's id, for launchctl's gui/<uid> domain (macOS). */
  uid: number;
  /** Absolute: node itself, tsx's loader (a file: URL for --import), main/agent.ts and the folder it runs in. */
  nodePath: string;
  tsxLoader: string;
  agentEntry: string;
  workingDirectory: string;
  env: NodeJS.ProcessEnv;
}

export interface ServicePlan {
  files: { path: string; content: string }[];
  remove: string[];
  /** Run by this tool, in order; a failing one is reported with its command and the rest still run. */
  commands: string[][];
  /** Printed for the user (Spanish). */
  notes: string[];
}

/** The agent's own folder: AUTOASESOR_AGENT_DATA, else ~/.autoasesor-agent. */
export function agentDataFolder(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform = process.platform): string {
  const paths = platform === 'win32' ? win32 : posix;
  return env.AUTOASESOR_AGENT_DATA ? paths.resolve(env.AUTOASESOR_AGENT_DATA) : paths.join(home, '.autoasesor-agent');
}

function serviceEnvironment(setup: ServiceSetup): [string, string][] {
  const passed = PASSED_VARIABLES.filter((name) => setup.env[name]).map((name): [string, string] => [name, setup.env[name] as string]);
  return [['AUTOASESOR_AGENT_DATA', agentDataFolder(setup.env, setup.home, setup.platform)], ...passed];
}

export function installPlan(setup: ServiceSetup): ServicePlan {
  const environment = serviceEnvironment(setup);
  const dataFolder = agentDataFolder(setup.env, setup.home, setup.platform);
  // One process, so the service manager's SIGTERM reaches the agent itself (tsx's CLI would sit in between).
  const program = [setup.nodePath, '--import', setup.tsxLoader, setup.agentEntry];
  switch (setup.platform) {
    case 'linux': {
      const unit = join(setup.home, '.config', 'systemd', 'user', SYSTEMD_UNIT);
      return {
        files: [{ path: unit, content: systemdUnit(program, setup.workingDirectory, environment) }],
        remove: [],
        commands: [],
        notes: [
          `Servicio escrito en ${unit}.`,
          'Para arrancarlo ahora y con cada inicio de sesión:',
          '  systemctl --user daemon-reload',
          `  systemctl --user enable --now ${SYSTEMD_UNIT}`,
          'Para que arranque con el equipo aunque nadie inicie sesión:',
          `  loginctl enable-linger ${setup.user}`,
          `Registro del agente: journalctl --user -u ${SYSTEMD_UNIT} -f`,
        ],
      };
    }
    case 'win32': {
      const script = win32.join(dataFolder, 'agente.cmd');
      return {
        files: [{ path: script, content: windowsScript(program, setup.workingDirectory, environment, win32.join(dataFolder, 'agente.log')) }],
        remove: [],
        commands: [
          ['schtasks', '/Create', '/F', '/SC', 'ONLOGON', '/RL', 'LIMITED', '/TN', WINDOWS_TASK, '/TR', `"${script}"`],
          ['schtasks', '/Run', '/TN', WINDOWS_TASK],
        ],
        notes: [
          `Tarea programada «${WINDOWS_TASK}»: arranca el agente al iniciar sesión (${script}; registro en agente.log).`,
          'Si Windows responde «Acceso denegado», vuelve a lanzar la orden desde una consola de administrador.',
        ],
      };
    }
    case 'darwin': {
      const plist = join(setup.home, 'Library', 'LaunchAgents', `${LAUNCH_AGENT_LABEL}.plist`);
      return {
        files: [{ path: plist, content: launchAgent(program, setup.workingDirectory, environment, join(dataFolder, 'agente.log')) }],
        remove: [],
        commands: [],
        notes: [
          `Agente de inicio escrito en ${plist}.`,
          'Para arrancarlo ahora (y con cada inicio de sesión):',
          `  launchctl bootstrap gui/$(id -u) ${plist}`,
        ],
      };
    }
    default:
      throw new Error(`No sé instalar el agente como servicio en ${setup.platform}: arráncalo con «npm run agent».`);
  }
}

export function uninstallPlan(setup: ServiceSetup): ServicePlan {
  const dataFolder = agentDataFolder(setup.env, setup.home, setup.platform);
  switch (setup.platform) {
    case 'linux':
      return {
        files: [],
        // Disabled first, then removed: a unit removed while enabled leaves its links behind.
        commands: [['systemctl', '--user', 'disable', '--now', SYSTEMD_UNIT]],
        remove: [join(setup.home, '.config', 'systemd', 'user', SYSTEMD_UNIT)],
        notes: ['Servicio del agente quitado. Si systemctl ha fallado, ejecuta después: systemctl --user daemon-reload'],
      };
    case 'win32':
      return {
        files: [],
        commands: [
          ['schtasks', '/End', '/TN', WINDOWS_TASK],
          ['schtasks', '/Delete', '/F', '/TN', WINDOWS_TASK],
        ],
        remove: [win32.join(dataFolder, 'agente.cmd')],
        notes: [`Tarea «${WINDOWS_TASK}» quitada.`],
      };
    case 'darwin': {
      const plist = join(setup.home, 'Library', 'LaunchAgents', `${LAUNCH_AGENT_LABEL}.plist`);
      return {
        files: [],
        commands: [['launchctl', 'bootout', `gui/${setup.uid}`, plist]],
        remove: [plist],
        notes: ['Agente de inicio quitado.'],
      };
    }
    default:
      throw new Error(`No sé quitar el servicio del agente en ${setup.platform}.`);
  }
}

export type CommandRunner = (command: string[]) => { ok: boolean; output: string };

export const runCommand: CommandRunner = ([file, ...args]) => {
  const result = spawnSync(file as string, args, { encoding: 'utf8', windowsHide: true });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? result.error.message : ''}`.trim() };
};

/** Writes the files (0600: they may hold settings of the agent), runs the commands, removes, and says what happened. */
export async function applyPlan(plan: ServicePlan, run: CommandRunner, print: (line: string) => void): Promise<boolean> {
  let ok = true;
  for (const file of plan.files) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.content, { mode: 0o600 });
    await chmod(file.path, 0o600);
  }
  for (const command of plan.commands) {
    const result = run(command);
    if (!result.ok) {
      ok = false;
      print(`No ha funcionado: ${command.join(' ')}${result.output ? `\n  ${result.output}` : ''}`);
    }
  }
  for (const path of plan.remove) await rm(path, { force: true });
  for (const note of plan.notes) print(note);
  return ok;
}

function systemdUnit(program: string[], workingDirectory: string, environment: [string, string][]): string {
  return [
    '[Unit]',
    'Description=Agente AutoAsesor (robots de escritorio y lanzamientos remotos)',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    // A path, not a command line: systemd takes it as it is (no quotes), expanding only % specifiers.
    `WorkingDirectory=${workingDirectory.replace(/%/g, '%%')}`,
    `ExecStart=${program.map(systemdQuote).join(' ')}`,
    ...environment.map(([name, value]) => `Environment=${systemdQuote(`${name}=${value}`)}`),
    'Restart=on-failure',
    'RestartSec=5',
    // SIGTERM lets the agent stop its robots and close their runs on the server ('device') before it exits.
    'KillSignal=SIGTERM',
    'TimeoutStopSec=30',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

/** One word for systemd: double-quoted, with \ and " escaped and % and $ doubled (its specifiers and variables). */
export function systemdQuote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;
}

function windowsScript(program: string[], workingDirectory: string, environment: [string, string][], logFile: string): string {
  const cmd = (text: string) => text.replace(/%/g, '%%');
  return [
    '@echo off',
    'rem Agente AutoAsesor: lo arranca la tarea programada al iniciar sesión (npm run agent -- --install-service).',
    ...environment.map(([name, value]) => `set "${name}=${cmd(value)}"`),
    `cd /d "${cmd(workingDirectory)}"`,
    `${program.map((part) => `"${cmd(part)}"`).join(' ')} >> "${cmd(logFile)}" 2>&1`,
    '',
  ].join('\r\n');
}

function launchAgent(program: string[], workingDirectory: string, environment: [string, string][], logFile: string): string {
  const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const string = (text: string) => `<string>${xml(text)}</string>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key>${string(LAUNCH_AGENT_LABEL)}`,
    `  <key>ProgramArguments</key><array>${program.map(string).join('')}</array>`,
    `  <key>WorkingDirectory</key>${string(workingDirectory)}`,
    `  <key>EnvironmentVariables</key><dict>${environment.map(([name, value]) => `<key>${xml(name)}</key>${string(value)}`).join('')}</dict>`,
    '  <key>RunAtLoad</key><true/>',
    // Restarted when it fails, not after a clean stop.
    '  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>',
    `  <key>StandardOutPath</key>${string(logFile)}`,
    `  <key>StandardErrorPath</key>${string(logFile)}`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

/** The setup of this checkout: the node running now, tsx's loader from node_modules, and this folder's agent.ts. */
export function currentSetup(env: NodeJS.ProcessEnv, home: string, resolveModule: (id: string) => string): ServiceSetup {
  const agentEntry = fileURLToPath(new URL('./agent.ts', import.meta.url));
  const user = userInfo();
  return {
    platform: process.platform,
    home,
    user: user.username,
    uid: user.uid,
    nodePath: process.execPath,
    tsxLoader: pathToFileURL(resolveModule('tsx')).href,
    agentEntry,
    workingDirectory: resolve(dirname(agentEntry), '..'),
    env,
  };
}
