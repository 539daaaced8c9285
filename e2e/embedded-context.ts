import type { Browser, BrowserContext, Page } from '@playwright/test';

/** What the desktop app's window says it is: the renderer takes the embedded (desktop) layout from it. */
export const DESKTOP_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36 AutoAsesorDesktop/0.1.0';

export interface AgentBridgeAddress {
  url: string | undefined;
  token: string | undefined;
}

/** The suite's agent (global-setup), unless a test started its own. */
export const suiteAgent = (): AgentBridgeAddress => ({ url: process.env.E2E_AGENT_URL, token: process.env.E2E_AGENT_TOKEN });

/** A browser context that is the desktop app: its pages reach the agent's bridge as the Electron window reaches main. */
export async function embeddedContext(browser: Browser, baseURL: string, bridge: AgentBridgeAddress = suiteAgent()): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, userAgent: DESKTOP_USER_AGENT });
  await context.addInitScript((value) => localStorage.setItem('autoasesor.agentBridge', value), JSON.stringify(bridge));
  return context;
}

/**
 * Full-page screenshots at 1366 and 390 px into `folder` (a spec's *_SHOTS variable) when it is set, for
 * looking at a screen as a user would; nothing otherwise. The viewport goes back to the suite's 1280 px.
 */
export async function screenshotsInto(folder: string | undefined, page: Page, name: string): Promise<void> {
  if (!folder) return;
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${folder}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}
