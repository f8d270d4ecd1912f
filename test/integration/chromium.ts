/**
 * Finds the Chromium the browser tests drive, needing nothing installed on the
 * system: `CHROMIUM_PATH` when set, else the binary shipped inside the
 * `@sparticuz/chromium` dev dependency (extracted to /tmp/chromium on first use).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Flags for a quiet headless browser in a container: no sandbox, no GPU, no calls home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

/** The Chromium executable: `CHROMIUM_PATH` if set (must exist), else `@sparticuz/chromium`'s binary. */
export async function chromiumExecutable(): Promise<{ path: string; from: string }> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, which does not exist`);
    return { path: fromEnv, from: 'CHROMIUM_PATH' };
  }
  const { default: sparticuz } = await import('@sparticuz/chromium');
  return { path: await sparticuz.executablePath(), from: '@sparticuz/chromium' };
}

/** A launched browser with a fresh user-data dir; `close()` stops it and removes the dir. */
export interface LaunchedChromium {
  readonly context: BrowserContext;
  readonly from: string;
  close(): Promise<void>;
}

/** Launches headless Chromium (see {@link chromiumExecutable}) with a fresh, temporary user-data dir. */
export async function launchChromium(timeoutMs: number): Promise<LaunchedChromium> {
  const { path, from } = await chromiumExecutable();
  const userDataDir = await mkdtemp(join(tmpdir(), 'idplatform-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: path,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: timeoutMs,
    });
    return {
      context,
      from,
      close: async () => {
        await context.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
