/**
 * Lighthouse (performance only) on one URL in Debian's Chromium, mobile (Lighthouse's default: Moto G
 * class device, slow 4G, 4x CPU slowdown) and desktop. Prints figures; nothing passes or fails here.
 */
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';

/** The same Chromium flags as playwright.config.ts, plus headless. */
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface LighthouseFigures {
  formFactor: 'mobile' | 'desktop';
  score: number | null;
  lcpMs: number | null;
  fcpMs: number | null;
  tbtMs: number | null;
}

export async function runLighthouse(url: string): Promise<LighthouseFigures[]> {
  const chrome = await launch({ chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const figures: LighthouseFigures[] = [];
    for (const formFactor of ['mobile', 'desktop'] as const) {
      const result = await lighthouse(
        url,
        { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error', output: 'json' },
        formFactor === 'desktop' ? desktopConfig : undefined,
      );
      const lhr = result?.lhr;
      const audit = (id: string) => lhr?.audits[id]?.numericValue ?? null;
      const score = lhr?.categories.performance?.score;
      figures.push({
        formFactor,
        score: typeof score === 'number' ? Math.round(score * 100) : null,
        lcpMs: audit('largest-contentful-paint'),
        fcpMs: audit('first-contentful-paint'),
        tbtMs: audit('total-blocking-time'),
      });
    }
    return figures;
  } finally {
    chrome.kill();
  }
}
