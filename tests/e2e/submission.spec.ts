// Intent: a study names a service that receives ratings files (DataPipe, an Apps Script web
// app). The finished file is sent there on its own, kept and sent again when the browser comes
// back online, with a receipt; the download stays. Only an origin allowed when the site was built
// (`JUROR_SUBMIT_ORIGINS`, written into the page's policy) can be reached: without it, nothing
// leaves the site.
import { test, expect, root } from './fixtures';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { completeStudy } from './session';

const receiver = 'http://127.0.0.1:8473';

/** pandalm.json sending its files to the receiver; with `allowed`, the page is served as a build
 * with JUROR_SUBMIT_ORIGINS="http://127.0.0.1:8473" would be (its policy's connect-src). */
async function setUp(page: Page, allowed: boolean, from = 'pandalm', submit: object = {}) {
  const study = JSON.parse(fs.readFileSync(path.join(root, `assets/studies/${from}.json`), 'utf8'));
  study.submit = { url: `${receiver}/in`, ...submit };
  await page.route(`**/studies/${from}-sent.json`, (route) => route.fulfill({ body: JSON.stringify(study), contentType: 'application/json' }));
  if (allowed) {
    await page.route(/\/index\.html\?/, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace("connect-src 'self'", `connect-src 'self' ${receiver}`);
      await route.fulfill({ response, body });
    });
  }
  const received: string[] = [];
  const state = { down: false };
  await page.route(`${receiver}/in`, async (route) => {
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type' };
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    if (state.down) return route.abort('internetdisconnected');
    received.push(route.request().postData() ?? '');
    return route.fulfill({ status: 200, headers: cors, body: '{"ok":true}' });
  });
  return { received, state };
}

test('the finished file is sent to the study\'s service, once, with a receipt', async ({ page, errors }) => {
  const { received } = await setUp(page, true);
  await page.goto('index.html?study=studies/pandalm-sent.json&slot=1');
  await completeStudy(page);
  const section = page.getByRole('region', { name: 'Sending your ratings to the researcher' });
  await expect(section.getByRole('status')).toContainText('Sent to the researcher');
  expect(received).toHaveLength(1);
  const file = JSON.parse(received[0]);
  expect(file.format).toBe('juror.ratings/1');
  expect(file.complete).toBe(true);
  // The download stays, and coming back to the page does not send the same file again.
  await expect(page.getByRole('button', { name: 'Download ratings (JSON)' })).toBeVisible();
  await page.reload();
  await expect(section.getByRole('status')).toContainText('Sent to the researcher');
  expect(received).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('offline, the file waits and is sent when the browser is back online', async ({ page, errors }) => {
  const { received, state } = await setUp(page, true);
  await page.goto('index.html?study=studies/pandalm-sent.json&slot=2');
  state.down = true;
  await completeStudy(page);
  const status = page.getByRole('region', { name: 'Sending your ratings to the researcher' }).getByRole('status');
  await expect(status).toContainText('It will be sent when you are back online');
  await expect(page.getByRole('button', { name: 'Send again' })).toBeVisible();
  expect(received).toHaveLength(0);
  state.down = false;
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(status).toContainText('Sent to the researcher');
  expect(received).toHaveLength(1);
  // The one console error is the browser's own line about the request that failed offline.
  expect(errors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
});

test('without the origin allowed at build time, the browser sends nothing off the site', async ({ page }) => {
  const { received } = await setUp(page, false);
  // Every request the page makes, by origin: the site's own only.
  const origins = new Set<string>();
  page.on('request', (r) => origins.add(new URL(r.url()).origin));
  await page.goto('index.html?study=studies/pandalm-sent.json&slot=3');
  await completeStudy(page);
  const status = page.getByRole('region', { name: 'Sending your ratings to the researcher' }).getByRole('status');
  await expect(status).toContainText('could not be sent');
  expect(received).toHaveLength(0);
  expect([...origins]).toEqual([new URL(page.url()).origin]);
});

test('with backups asked for, the answers so far go every ten trials, and one that could not go is sent with the next answer', async ({ page, errors }) => {
  const { received, state } = await setUp(page, true, 'financial-analysis', { backups: true });
  await page.goto('index.html?study=studies/financial-analysis-sent.json&slot=1');
  // Offline from trial 10's page until trial 11's: the backup due after trial 10 fails, and
  // goes with the first answer on trial 11.
  const trials = await completeStudy(page, async (n) => {
    if (n === 11) await expect.poll(() => received.length).toBe(0);
    state.down = n === 10;
  });
  expect(trials).toBe(50);
  const section = page.getByRole('region', { name: 'Sending your ratings to the researcher' });
  await expect(section.getByRole('status')).toContainText('Sent to the researcher');
  const files = received.map((body) => JSON.parse(body));
  const done = (file: any) => file.trials.filter((t: any) => t.done).length;
  expect(files.map((f) => [f.complete, done(f)])).toEqual([[false, 10], [false, 20], [false, 30], [false, 40], [true, 50]]);
  expect(errors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
});
