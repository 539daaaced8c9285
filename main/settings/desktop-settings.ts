import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/** The servers a desktop app can load the renderer from (spec §7: local, dev, test, prod). */
export const serverPresets = {
  local: 'http://localhost:8081',
  dev: 'https://dev.autoasesor.es',
  test: 'https://test.autoasesor.es',
  prod: 'https://app.autoasesor.es',
} as const;

const settingsSchema = z.object({
  server: z.enum(['local', 'dev', 'test', 'prod', 'custom']).default('local'),
  // Only web servers: a javascript: or file: URL must never become the window's page.
  customServerUrl: z.url({ protocol: /^https?$/ }).optional(),
});
export type DesktopSettings = z.infer<typeof settingsSchema>;

export async function readDesktopSettings(file: string): Promise<DesktopSettings> {
  try {
    return settingsSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    // Missing or damaged settings fall back to the defaults rather than leaving the app unusable.
    return settingsSchema.parse({});
  }
}

export async function writeDesktopSettings(file: string, settings: DesktopSettings): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(settingsSchema.parse(settings), null, 2));
}

/** AUTOASESOR_SERVER_URL wins over the saved choice (useful for support and testing). */
export function serverUrlFor(settings: DesktopSettings, env: NodeJS.ProcessEnv = process.env): string {
  if (env.AUTOASESOR_SERVER_URL) return env.AUTOASESOR_SERVER_URL;
  if (settings.server === 'custom' && settings.customServerUrl) return settings.customServerUrl;
  return settings.server === 'custom' ? serverPresets.local : serverPresets[settings.server];
}
