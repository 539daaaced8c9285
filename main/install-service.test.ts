import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan, installPlan, systemdQuote, uninstallPlan, type ServiceSetup } from './install-service.ts';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'agent-home-'));
});
afterEach(() => rm(home, { recursive: true, force: true }));

const setup = (overrides: Partial<ServiceSetup> = {}): ServiceSetup => ({
  platform: 'linux',
  home,
  user: 'ana',
  uid: 1000,
  nodePath: '/opt/node 20/bin/node',
  tsxLoader: 'file:///srv/autoasesor/node_modules/tsx/dist/loader.mjs',
  agentEntry: '/srv/autoasesor/main/agent.ts',
  workingDirectory: '/srv/autoasesor',
  env: {},
  ...overrides,
});

/** Records the commands instead of running them: tests never touch systemctl, schtasks or launchctl. */
function recorder(ok = true) {
  const commands: string[][] = [];
  return { commands, run: (command: string[]) => (commands.push(command), { ok, output: ok ? '' : 'Failed to connect to bus' }) };
}

describe('--install-service on Linux', () => {
  it('writes a systemd user unit that runs the agent with absolute paths, restarts it on failure, and prints how to enable it', async () => {
    const printed: string[] = [];
    const { commands, run } = recorder();
    const env = { AUTOASESOR_AGENT_DATA: '/var/lib/autoasesor agente', CHROMIUM_PATH: '/usr/bin/chromium', AUTOASESOR_ROBOT_SETTINGS: '{"x":{"ignoreHTTPSErrors":true,"p":"50%"}}', HOME_OTHER: 'no' };
    await expect(applyPlan(installPlan(setup({ env })), run, (line) => printed.push(line))).resolves.toBe(true);

    const unitFile = join(home, '.config', 'systemd', 'user', 'autoasesor-agent.service');
    const unit = await readFile(unitFile, 'utf8');
    expect(unit).toContain('ExecStart="/opt/node 20/bin/node" "--import" "file:///srv/autoasesor/node_modules/tsx/dist/loader.mjs" "/srv/autoasesor/main/agent.ts"\n');
    expect(unit).toContain('WorkingDirectory=/srv/autoasesor\n');
    expect(unit).toContain('Environment="AUTOASESOR_AGENT_DATA=/var/lib/autoasesor agente"\n');
    expect(unit).toContain('Environment="CHROMIUM_PATH=/usr/bin/chromium"\n');
    expect(unit).toContain('Environment="AUTOASESOR_ROBOT_SETTINGS={\\"x\\":{\\"ignoreHTTPSErrors\\":true,\\"p\\":\\"50%%\\"}}"\n');
    expect(unit).not.toContain('HOME_OTHER');
    expect(unit).toMatch(/\nRestart=on-failure\n/);
    expect(unit).toMatch(/\[Install\]\nWantedBy=default.target\n/);
    expect((await stat(unitFile)).mode & 0o777).toBe(0o600);

    expect(commands).toEqual([]);
    expect(printed).toContain('  systemctl --user enable --now autoasesor-agent.service');
    expect(printed).toContain('  loginctl enable-linger ana');
  });

  it('defaults the data folder to ~/.autoasesor-agent, as the agent does', () => {
    const [unit] = installPlan(setup()).files;
    expect(unit?.content).toContain(`Environment="AUTOASESOR_AGENT_DATA=${join(home, '.autoasesor-agent')}"`);
  });

  it('--uninstall-service disables the unit, then removes it', async () => {
    await applyPlan(installPlan(setup()), recorder().run, () => undefined);
    const { commands, run } = recorder();
    await expect(applyPlan(uninstallPlan(setup()), run, () => undefined)).resolves.toBe(true);
    expect(commands).toEqual([['systemctl', '--user', 'disable', '--now', 'autoasesor-agent.service']]);
    await expect(stat(join(home, '.config', 'systemd', 'user', 'autoasesor-agent.service'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('still removes the unit when systemctl fails, and says which command failed', async () => {
    await applyPlan(installPlan(setup()), recorder().run, () => undefined);
    const printed: string[] = [];
    await expect(applyPlan(uninstallPlan(setup()), recorder(false).run, (line) => printed.push(line))).resolves.toBe(false);
    expect(printed[0]).toBe('No ha funcionado: systemctl --user disable --now autoasesor-agent.service\n  Failed to connect to bus');
    await expect(stat(join(home, '.config', 'systemd', 'user', 'autoasesor-agent.service'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('--install-service on Windows', () => {
  it('creates a logon task that runs a .cmd with the agent variables', () => {
    const plan = installPlan(setup({ platform: 'win32', home: 'C:\\Users\\ana', nodePath: 'C:\\Program Files\\nodejs\\node.exe', tsxLoader: 'file:///C:/AutoAsesor/node_modules/tsx/dist/loader.mjs', agentEntry: 'C:\\AutoAsesor\\main\\agent.ts', workingDirectory: 'C:\\AutoAsesor', env: { CHROMIUM_PATH: 'C:\\Chromium\\chrome.exe' } }));
    const script = 'C:\\Users\\ana\\.autoasesor-agent\\agente.cmd';
    expect(plan.files.map((file) => file.path)).toEqual([script]);
    expect(plan.files[0]?.content.split('\r\n')).toEqual([
      '@echo off',
      expect.stringContaining('rem '),
      'set "AUTOASESOR_AGENT_DATA=C:\\Users\\ana\\.autoasesor-agent"',
      'set "CHROMIUM_PATH=C:\\Chromium\\chrome.exe"',
      'cd /d "C:\\AutoAsesor"',
      '"C:\\Program Files\\nodejs\\node.exe" "--import" "file:///C:/AutoAsesor/node_modules/tsx/dist/loader.mjs" "C:\\AutoAsesor\\main\\agent.ts" >> "C:\\Users\\ana\\.autoasesor-agent\\agente.log" 2>&1',
      '',
    ]);
    expect(plan.commands).toEqual([
      ['schtasks', '/Create', '/F', '/SC', 'ONLOGON', '/RL', 'LIMITED', '/TN', 'AutoAsesor\\Agente', '/TR', `"${script}"`],
      ['schtasks', '/Run', '/TN', 'AutoAsesor\\Agente'],
    ]);
    expect(uninstallPlan(setup({ platform: 'win32', home: 'C:\\Users\\ana' })).commands).toEqual([
      ['schtasks', '/End', '/TN', 'AutoAsesor\\Agente'],
      ['schtasks', '/Delete', '/F', '/TN', 'AutoAsesor\\Agente'],
    ]);
  });
});

describe('--install-service on macOS', () => {
  it('writes a LaunchAgent that starts at login and restarts on failure', async () => {
    const printed: string[] = [];
    await applyPlan(installPlan(setup({ platform: 'darwin', env: { AUTOASESOR_ROBOT_SETTINGS: '{"a":{"b":"<&>"}}' } })), recorder().run, (line) => printed.push(line));
    const plistFile = join(home, 'Library', 'LaunchAgents', 'es.autoasesor.agente.plist');
    const plist = await readFile(plistFile, 'utf8');
    expect(plist).toContain('<key>ProgramArguments</key><array><string>/opt/node 20/bin/node</string><string>--import</string><string>file:///srv/autoasesor/node_modules/tsx/dist/loader.mjs</string><string>/srv/autoasesor/main/agent.ts</string></array>');
    expect(plist).toContain('<key>AUTOASESOR_ROBOT_SETTINGS</key><string>{&quot;a&quot;:{&quot;b&quot;:&quot;&lt;&amp;&gt;&quot;}}</string>');
    expect(plist).toContain('<key>RunAtLoad</key><true/>');
    expect(printed).toContain(`  launchctl bootstrap gui/$(id -u) ${plistFile}`);
    expect(uninstallPlan(setup({ platform: 'darwin' })).commands).toEqual([['launchctl', 'bootout', 'gui/1000', plistFile]]);
  });
});

describe('systemd quoting', () => {
  it('escapes quotes, backslashes, specifiers and variables', () => {
    expect(systemdQuote('a "b" \\c 100% $HOME')).toBe('"a \\"b\\" \\\\c 100%% $$HOME"');
  });

  it('refuses other platforms in Spanish', () => {
    expect(() => installPlan(setup({ platform: 'aix' }))).toThrow('No sé instalar el agente como servicio en aix');
  });
});
