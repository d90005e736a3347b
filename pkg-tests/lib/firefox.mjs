// Headless Firefox ESR (Debian's /usr/bin/firefox-esr, installed by
// `scripts/setup.sh --compat`) driven over WebDriver BiDi by puppeteer-core from
// compat/node_modules: a stock Firefox, no browser download.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { compatDir, tool } from './compat.mjs';

export const FIREFOX = process.env.MLDSA_FIREFOX || '/usr/bin/firefox-esr';

/**
 * Opens one page; returns { page, problems, offsite, version, close } like
 * lib/chromium.mjs's openPage. `offsite` records requests to hosts other than
 * 127.0.0.1 (recorded, not blocked: request interception over BiDi is not
 * dependable in Firefox ESR, and this machine has no route out anyway).
 */
export async function openFirefox() {
  if (!fs.existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing (scripts/setup.sh --compat installs Debian firefox-esr)`);
  tool('puppeteer-core/package.json');
  const entry = createRequire(path.join(compatDir, 'package.json')).resolve('puppeteer-core');
  const { default: puppeteer } = await import(pathToFileURL(entry).href);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mldsa-firefox-'));
  let browser;
  const close = async () => {
    await browser?.close().catch(() => {});
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      userDataDir,
      // No update checks, telemetry or captive-portal probes on this closed network.
      extraPrefsFirefox: {
        'app.update.enabled': false,
        'network.captive-portal-service.enabled': false,
        'datareporting.policy.dataSubmissionEnabled': false,
        'toolkit.telemetry.enabled': false,
      },
    });
    const version = await browser.version();
    const page = await browser.newPage();
    const problems = [];
    const offsite = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (/^https?:$/.test(u.protocol) && u.hostname !== '127.0.0.1') offsite.push(u.href);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
    return { page, problems, offsite, version, close };
  } catch (e) {
    await close();
    throw e;
  }
}
