import { defineConfig } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium (Playwright cannot download its own here) against the built
 * renderer served by a real server on a free port with a fresh database (see e2e/global-setup.ts).
 */
const DESKTOP_LANE = [
  'autopilot.spec.ts', 'certificates.spec.ts', 'desktop-runs.spec.ts', 'embedded.spec.ts', 'account-recovery.spec.ts', 'desktop-update.spec.ts', 'hidden-routes.spec.ts', 'altas.spec.ts', 'notifications.spec.ts', 'email-desktop.spec.ts', 'macros.spec.ts',
];
/**
 * Half of the app's specs by time: the launcher's and the FIE screen's specs in one lane, the screens' in the
 * other; the desktop lane also takes two short ones (measured with the FIE specs: ~6.5 min a lane).
 */
const SCREENS_LANE = [
  'screens.spec.ts', 'flows-history.spec.ts', 'flows-builtins.spec.ts', 'responsive.spec.ts', 'screens-polish.spec.ts', 'history-filters.spec.ts',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  // Three lanes over the one server, each running its files one at a time. The suite spends much of its
  // time waiting (robots, long polls, the autopilot's wall-clock minutes): it used 0.65 of this machine's
  // two cores with two lanes. The desktop lane holds the specs that drive an agent — the autopilot spec,
  // which spends ~3 minutes waiting for wall-clock minutes with an agent of its own, then the specs
  // sharing the suite's agent (its link and store are one at a time) — plus account recovery; the other
  // specs are shared by two lanes about even in time.
  workers: 3,
  projects: [
    { name: 'desktop', testMatch: DESKTOP_LANE, workers: 1 },
    { name: 'screens', testMatch: SCREENS_LANE, workers: 1 },
    { name: 'app', testIgnore: [...DESKTOP_LANE, ...SCREENS_LANE], workers: 1 },
  ],
  retries: process.env.CI ? 1 : 0,
  // A robot launched from the browser (Validar, the FIE and RED robots) takes 15 s alone and over 30 s
  // with three lanes and two servers on a 2-core machine: the limit is for hangs, not for a busy CI.
  timeout: 60_000,
  // A screen's first paint in a fresh context waits on its route's chunk and its first API answers; with
  // three lanes, two servers, the agent's robots and the recorder's browser on 2 cores that passed 7 s at times.
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // After the run, the spec files that took over 20 s (issue 20: the browser suite's time is watched).
  reportSlowTests: { max: 10, threshold: 20_000 },
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
