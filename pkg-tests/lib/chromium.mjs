// Headless Debian Chromium through playwright-core, as the browser tests use it:
// a fresh profile, the flags this closed network needs, requests to any host but
// 127.0.0.1 blocked and recorded, and page errors collected.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CHROMIUM = process.env.MLDSA_CHROMIUM || '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Opens one page. Returns { page, problems, offsite, close }: `problems` gathers page
 * errors, console errors and failed requests; `offsite` the blocked off-machine URLs.
 * `args`: more Chromium flags (e.g. `--js-flags=--expose-gc`).
 */
export async function openPage({ viewport, profilePrefix = 'mldsa-chromium-', args = [] }) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (scripts/setup.sh installs Debian chromium)`);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), profilePrefix));
  const { chromium } = await import('playwright-core');
  let context;
  const close = async () => {
    await context?.close().catch(() => {});
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  try {
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: [...ARGS, ...args], viewport });
    const problems = [];
    const offsite = [];
    await context.route('**/*', (route) => {
      const u = new URL(route.request().url());
      if (u.hostname === '127.0.0.1') return route.continue();
      offsite.push(u.href);
      return route.abort();
    });
    const page = context.pages()[0] || (await context.newPage());
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    return { page, problems, offsite, close };
  } catch (e) {
    await close();
    throw e;
  }
}
