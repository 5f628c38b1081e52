// The dashboard scenario DashboardTest runs in Debian's headless Chromium through playwright-core:
// the owner logs in with a token, finds the running job in the queue, opens its page and sees the
// CPU/memory plot drawn; another user opens the same page and is refused the cancel (the REST
// error shown); the owner cancels it. Every check that fails exits 1 with the reason; what was
// seen is printed as "SEEN key=value" lines for the Java test to check as well.
//
// Environment: DASHBOARD_URL, JOB_ID, OWNER, OWNER_TOKEN, OTHER, OTHER_TOKEN, ARTIFACTS (a directory).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env = (k) => {
  if (!process.env[k]) throw new Error(`${k} is not set`);
  return process.env[k];
};
const url = env('DASHBOARD_URL');
const job = env('JOB_ID');
const artifacts = env('ARTIFACTS');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function seen(key, value) {
  console.log(`SEEN ${key}=${String(value).replace(/\n/g, '\\n')}`);
}

function check(ok, what) {
  if (!ok) throw new Error(`check failed: ${what}`);
}

const pages = [];

/** On a failure: each page's shown error and a screenshot, for whoever reads the test's report. */
async function evidence() {
  for (const [i, p] of pages.entries()) {
    try {
      console.log(`PAGE ${i} ${p.url()} errors: ${await p.innerText('#errors')}`);
      await p.screenshot({ path: join(artifacts, `failure-${i}.png`), fullPage: true });
    } catch (e) {
      console.log(`PAGE ${i}: ${e.message}`);
    }
  }
}

/** A browser of its own (a fresh profile) logged in with {@code token}. */
async function loggedIn(user, token) {
  const profile = mkdtempSync(join(tmpdir(), 'corral-dashboard-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, args: ARGS, viewport: { width: 1200, height: 1400 },
  });
  const page = context.pages()[0] || await context.newPage();
  pages.push(page);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => console.log(`PAGEERROR ${e.message}`));
  await page.goto(url + '/dashboard/');
  await page.fill('#token', token);
  await page.click('#login-form button[type=submit]');
  await page.waitForSelector(`#who:has-text("logged in as ${user}")`, { timeout: 15000 });
  check(await page.evaluate(() => sessionStorage.getItem('corral.token')) === token, 'token kept in sessionStorage');
  return { page, requests, close: async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); } };
}

/** Pixels of the plot's canvas in the CPU series' colour (#d62728): the line was drawn. */
async function seriesPixels(page) {
  return page.evaluate(() => {
    const c = document.querySelector('#job-usage-plot canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] > 0 && Math.abs(d[i] - 0xd6) < 24 && Math.abs(d[i + 1] - 0x27) < 24 && Math.abs(d[i + 2] - 0x28) < 24) n++;
    }
    return n;
  });
}

const owner = await loggedIn(env('OWNER'), env('OWNER_TOKEN'));
try {
  await scenario();
} catch (e) {
  await evidence();
  throw e;
} finally {
  await owner.close();
}
console.log('SCENARIO OK');

async function scenario() {
  const p = owner.page;
  await p.goto(url + '/dashboard/#/queue');
  const link = p.locator(`#view a[href="#/job/${job}"]`);
  await link.waitFor({ timeout: 15000 });
  const row = (await link.locator('xpath=ancestor::tr').innerText()).replace(/\s+/g, ' ');
  seen('queue.row', row);
  check(/\bRUNNING\b/.test(row), `the queue shows job ${job} running: ${row}`);

  await link.click();
  await p.waitForSelector('#job-state');
  seen('job.state', await p.innerText('#job-state'));
  // the plot: at least two samples from the node's metrics, and the CPU line drawn
  await p.waitForFunction(() => Number(document.querySelector('#job-usage-plot')?.dataset.points || 0) >= 3,
    null, { timeout: 30000 });
  const pixels = await seriesPixels(p);
  seen('plot.cpu_pixels', pixels);
  check(pixels > 50, `the CPU series is drawn on the canvas (${pixels} pixels)`);
  const peak = await p.evaluate(() => Number(document.querySelector('#job-usage-plot').dataset.peakCores));
  seen('plot.peak_cores', peak);
  await p.waitForFunction(() => {
    const s = document.querySelector('#job-script')?.textContent || '';
    const o = document.querySelector('#job-output')?.textContent || '';
    return s.includes('#!') && o.length > 0;
  }, null, { timeout: 15000 });
  seen('job.script', await p.innerText('#job-script'));
  seen('job.output', await p.innerText('#job-output'));
  await p.waitForFunction(() => (document.querySelector('#job-efficiency')?.textContent || '').length > 0, null,
    { timeout: 15000 });
  seen('job.efficiency', await p.innerText('#job-efficiency'));
  await p.screenshot({ path: join(artifacts, 'job-page.png'), fullPage: true });

  const other = await loggedIn(env('OTHER'), env('OTHER_TOKEN'));
  try {
    const q = other.page;
    await q.goto(url + `/dashboard/#/job/${job}`);
    await q.waitForSelector('#cancel');
    await q.waitForFunction(() => (document.querySelector('#job-output')?.textContent || '').length > 0, null,
      { timeout: 15000 });
    seen('other.output', await q.innerText('#job-output'));
    await q.click('#cancel');
    await q.waitForSelector('#job-action:has-text("Refused")', { timeout: 15000 });
    const refused = await q.innerText('#job-action');
    seen('other.cancel', refused);
    check(refused.includes('Access/permission denied'), `another user's cancel is refused: ${refused}`);
    await q.screenshot({ path: join(artifacts, 'job-page-other-user.png'), fullPage: true });
    const foreign = other.requests.filter((r) => !r.startsWith(url));
    check(foreign.length === 0, `nothing fetched from elsewhere: ${foreign}`);
  } finally {
    await other.close();
  }

  await p.click('#cancel');
  await p.waitForSelector('#job-action:has-text("cancelled")', { timeout: 15000 });
  seen('owner.cancel', await p.innerText('#job-action'));
  const foreign = owner.requests.filter((r) => !r.startsWith(url));
  check(foreign.length === 0, `nothing fetched from elsewhere: ${foreign}`);

  await p.goto(url + '/dashboard/#/overview');
  await p.waitForSelector('#view[data-ready="true"]');
  seen('overview', (await p.innerText('#view')).replace(/\s+/g, ' '));
  await p.screenshot({ path: join(artifacts, 'overview.png'), fullPage: true });
}
