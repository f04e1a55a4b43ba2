// Intent: a study names a service that receives ratings files (DataPipe, an Apps Script web
// app). The finished file is sent there on its own, kept and sent again when the browser comes
// back online, with a receipt; the download stays. Only an origin allowed when the site was built
// (`JUROR_SUBMIT_ORIGINS`, written into the page's policy) can be reached: without it, nothing
// leaves the site. A generic endpoint gets a CORS-simple request (no preflight, which Apps Script
// cannot answer), a redirect after the POST counts as delivered only with a receipt for the
// file (never a sign-in page's), and the finish page tells offline, refused, unconfirmed and an
// error answer apart.
import { test, expect, root } from './fixtures';
import { compiled } from './compile';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { completeStudy, finishStudy } from './session';

const receiver = 'http://127.0.0.1:8473';

// The Apps Script receivers below are real servers on 127.0.0.1, as the site is: Chromium's Local
// Network Access checks, which a service on the internet never meets, are turned off here (the
// project's other launch options as in playwright.config.ts).
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-features=LocalNetworkAccessChecks'],
  },
});

/** pandalm.json sending its files to the receiver; with `allowed`, the page is served as a build
 * with JUROR_SUBMIT_ORIGINS="http://127.0.0.1:8473" would be (its policy's connect-src). */
async function setUp(page: Page, allowed: boolean, from = 'pandalm', submit: object = {}) {
  const received: string[] = [];
  const types: string[] = [];
  const state = { down: false, status: 200 };
  await serveStudy(page, allowed ? receiver : undefined, from, { url: `${receiver}/in`, ...submit });
  await page.route(`${receiver}/in`, async (route) => {
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type' };
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    if (state.down) return route.abort('internetdisconnected');
    types.push(route.request().headers()['content-type'] ?? '');
    if (state.status !== 200) return route.fulfill({ status: state.status, headers: cors, body: 'File already exists' });
    received.push(route.request().postData() ?? '');
    return route.fulfill({ status: 200, headers: cors, body: '{"ok":true}' });
  });
  return { received, state, types };
}

/** Serves `from`.json as `<from>-sent.json` with `submit`; with `allowed` (an origin), the page's
 * policy is what a build with JUROR_SUBMIT_ORIGINS naming it would write. */
async function serveStudy(page: Page, allowed: string | undefined, from: string, submit: object) {
  const study = JSON.parse(fs.readFileSync(path.join(root, `assets/studies/${from}.json`), 'utf8'));
  study.submit = submit;
  await page.route(`**/studies/${from}-sent.json`, (route) => route.fulfill({ body: compiled(study), contentType: 'application/json' }));
  if (allowed) {
    await page.route(/\/index\.html\?/, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace("connect-src 'self'", `connect-src 'self' ${allowed}`);
      await route.fulfill({ response, body });
    });
  }
}

/** A real HTTP server on a free port of 127.0.0.1 that behaves as a Google Apps Script web app:
 * it refuses the CORS preflight (`OPTIONS` gets 405, no CORS headers), takes a POST, and answers
 * it as `answer` says, with `Access-Control-Allow-Origin: *`:
 * - `ok`: 200 at once;
 * - `receipt`: a 302 to a second server (`echo`, standing for script.googleusercontent.com) whose
 *   page is doPost's answer, the file's `sha256`;
 * - `sign-in`: a 302 to the second server's login page (standing for accounts.google.com: a web
 *   app deployed for "Anyone with a Google account"), a 200 HTML page with no receipt; the POST
 *   was not run, so nothing is kept.
 * Not page.route: the browser's own CORS and policy rules decide. */
async function appsScript(answer: 'ok' | 'receipt' | 'sign-in') {
  const seen: { method: string; type: string; body: string }[] = [];
  const kept: string[] = [];
  const echoed: string[] = [];
  const cors = { 'Access-Control-Allow-Origin': '*' };
  const echo = http.createServer((req, res) => {
    echoed.push(req.url ?? '');
    const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('k'));
    if (req.url?.startsWith('/macros/echo')) {
      res.writeHead(200, { ...cors, 'Content-Type': 'text/plain' });
      return res.end(JSON.parse(kept[n] ?? '{}').sha256 ?? '');
    }
    res.writeHead(200, { ...cors, 'Content-Type': 'text/html' });
    res.end('<html><body>Sign in to continue</body></html>');
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const echoOrigin = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', type: req.headers['content-type'] ?? '', body });
      if (req.method !== 'POST') {
        res.writeHead(405, { Allow: 'GET, POST' });
        return res.end('Method not allowed');
      }
      if (answer === 'sign-in') {
        res.writeHead(302, { ...cors, Location: `${echoOrigin}/ServiceLogin?continue=x` });
        return res.end();
      }
      kept.push(body);
      if (answer === 'receipt') {
        res.writeHead(302, { ...cors, Location: `${echoOrigin}/macros/echo?k=${kept.length - 1}` });
        return res.end();
      }
      res.writeHead(200, { ...cors, 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => Promise.all([server, echo].map((s) => new Promise((resolve) => s.close(resolve))));
  return { origin, echo: echoOrigin, seen, kept, echoed, close };
}

test('the finished file is sent to the study\'s service, once, with a receipt', async ({ page, errors }) => {
  const { received, types } = await setUp(page, true);
  await page.goto('index.html?study=studies/pandalm-sent.json&slot=1');
  // The welcome page says when the answers are sent, and where.
  await expect(page.getByText("Your answers are sent to the researchers' service (127.0.0.1:8473) when you finish.")).toBeVisible();
  await completeStudy(page);
  const section = page.getByRole('region', { name: 'Sending your ratings to the researcher' });
  await expect(section.getByRole('status')).toContainText('Sent to the researcher');
  expect(received).toHaveLength(1);
  const file = JSON.parse(received[0]);
  expect(file.format).toBe('juror.ratings/1');
  expect(file.complete).toBe(true);
  // A simple request: no preflight needed.
  expect(types).toEqual(['text/plain;charset=utf-8']);
  // The download stays, and coming back to the page does not send the same file again.
  await expect(page.getByRole('button', { name: 'Download ratings (JSON)' })).toBeVisible();
  await page.reload();
  await expect(section.getByRole('status')).toContainText('Sent to the researcher');
  expect(received).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('offline, the file waits and is sent when the browser is back online', async ({ page, context, errors }) => {
  const { received, state } = await setUp(page, true);
  await page.goto('index.html?study=studies/pandalm-sent.json&slot=2');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  // The browser offline (`navigator.onLine` false) once the page's code is all in; the route,
  // which runs before the browser's network, fails as the network would.
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  state.down = true;
  await completeStudy(page);
  const status = page.getByRole('region', { name: 'Sending your ratings to the researcher' }).getByRole('status');
  await expect(status).toContainText('this browser is offline. It will be sent when you are back online');
  await expect(page.getByRole('button', { name: 'Send again' })).toBeVisible();
  expect(received).toHaveLength(0);
  // Back online: the browser's own `online` event sends it.
  state.down = false;
  await context.setOffline(false);
  await expect(status).toContainText('Sent to the researcher');
  expect(received).toHaveLength(1);
  // The one console error is the browser's own line about the request that failed offline.
  expect(errors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
});

test('going back from the finish page to change an answer leaves no listener behind: back online, the page goes on and sends once', async ({ page, context, errors }) => {
  const { received, state } = await setUp(page, true);
  await page.goto('index.html?study=studies/pandalm-sent.json&slot=2');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  // Offline only once the page's code is all in: before that, the page rightly says it could
  // not load (offline before it had ever been loaded whole), which is another spec's subject.
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  state.down = true;
  await completeStudy(page);
  const status = page.getByRole('region', { name: 'Sending your ratings to the researcher' }).getByRole('status');
  await expect(status).toContainText('this browser is offline');
  // Review: the finish page leaves the screen for the last trial.
  await page.getByRole('button', { name: 'Review or change an answer' }).click();
  const list = page.getByRole('dialog', { name: 'All trials' });
  const last = list.getByRole('button', { name: /^Trial \d+$/ }).last();
  const name = (await last.textContent()) ?? '';
  await last.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(`^${name}\\b`));
  // Back online on a trial: the finish page, gone, must not react (it read its disposed state).
  state.down = false;
  await context.setOffline(false);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(true);
  expect(received).toHaveLength(0);
  // The page still answers, and the finish page, shown again, sends the file once.
  await finishStudy(page);
  await expect(status).toContainText('Sent to the researcher');
  await page.getByRole('button', { name: 'Review or change an answer' }).click();
  await list.getByRole('button', { name, exact: true }).click();
  await finishStudy(page);
  await expect(status).toContainText('Sent to the researcher');
  expect(received).toHaveLength(1);
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
  // Online, but refused by the browser: not "offline", and what to do instead.
  await expect(status).toContainText("could not reach the researcher's service");
  await expect(status).toContainText('send it to the researcher yourself');
  await expect(status).not.toContainText('offline');
  expect(received).toHaveLength(0);
  expect([...origins]).toEqual([new URL(page.url()).origin]);
});

test('with backups asked for, the answers so far go every ten trials, and one that could not go is sent with the next answer', async ({ page, errors }) => {
  test.slow(); // fifty trials
  const { received, state } = await setUp(page, true, 'financial-analysis', { backups: true });
  await page.goto('index.html?study=studies/financial-analysis-sent.json&slot=1');
  await expect(page.getByText('when you finish, and every 10 trials as a backup')).toBeVisible();
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

test('a receiver that refuses the preflight, as Apps Script does, still receives the file', async ({ page, errors }) => {
  const script = await appsScript('ok');
  try {
    await serveStudy(page, script.origin, 'pandalm', { url: `${script.origin}/macros/s/X/exec` });
    await page.goto('index.html?study=studies/pandalm-sent.json&slot=4');
    await completeStudy(page);
    const status = page.getByRole('region', { name: 'Sending your ratings to the researcher' }).getByRole('status');
    await expect(status).toContainText('Sent to the researcher');
    // No preflight was asked for: one POST, a simple request, carrying the ratings file.
    expect(script.seen.map((r) => [r.method, r.type])).toEqual([['POST', 'text/plain;charset=utf-8']]);
    expect(JSON.parse(script.seen[0].body).complete).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await script.close();
  }
});

test('a receiver that answers with a redirect, as Apps Script does, has the file: delivered, once', async ({ page, errors }) => {
  const script = await appsScript('receipt');
  try {
    // The script's origin and its echo page's are allowed (the build adds
    // script.googleusercontent.com beside script.google.com).
    await serveStudy(page, `${script.origin} ${script.echo}`, 'pandalm', { url: `${script.origin}/macros/s/X/exec` });
    await page.goto('index.html?study=studies/pandalm-sent.json&slot=5');
    await completeStudy(page);
    const status = page.getByRole('region', { name: 'Sending your ratings to the researcher' }).getByRole('status');
    await expect(status).toContainText('Sent to the researcher');
    expect(script.seen.map((r) => r.method)).toEqual(['POST']);
    // The redirect was followed to the echo page, whose receipt is the file's checksum.
    expect(script.echoed).toEqual(['/macros/echo?k=0']);
    // Coming back does not send it again.
    await page.reload();
    await expect(status).toContainText('Sent to the researcher');
    expect(script.seen).toHaveLength(1);
    expect(errors).toEqual([]);
  } finally {
    await script.close();
  }
});

// A sign-in page on an allowed origin (a 200 with no receipt), and one the policy refuses.
for (const [where, echoAllowed, said, slot] of [
  ['on an allowed origin', true, 'may not have arrived', 7],
  ['on an origin the site does not allow', false, 'could not reach the researcher', 8],
] as const) {
  test(`a redirect to a sign-in page ${where} is not taken for delivery: the answers stay until a download`, async ({ page, errors }) => {
    const script = await appsScript('sign-in');
    try {
      const allowed = echoAllowed ? `${script.origin} ${script.echo}` : script.origin;
      await serveStudy(page, allowed, 'pandalm', { url: `${script.origin}/macros/s/X/exec` });
      await page.goto(`index.html?study=studies/pandalm-sent.json&slot=${slot}`);
      await completeStudy(page);
      const section = page.getByRole('region', { name: 'Sending your ratings to the researcher' });
      await expect(section.getByRole('status')).toContainText(said);
      await expect(section.getByRole('status')).not.toContainText('Sent to the researcher');
      await expect(section.getByRole('button', { name: 'Send again' })).toBeVisible();
      // Nothing says the file is safe elsewhere: no removal is offered, and the answers are kept.
      await expect(page.getByRole('button', { name: 'Remove my answers from this browser' })).toHaveCount(0);
      const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror/v1/')).length);
      expect(kept).toBeGreaterThan(0);
      // Once the participant has the file, they may remove it.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download ratings (JSON)' }).click();
      await download;
      await expect(page.getByRole('button', { name: 'Remove my answers from this browser' })).toBeVisible();
      expect(script.kept).toEqual([]);
      // The browser logs a redirect its policy refuses (connect-src) to the console.
      expect(errors.filter((e) => !/Content Security Policy|Failed to fetch|ERR_/.test(e))).toEqual([]);
    } finally {
      await script.close();
    }
  });
}

test('a service that answers with an error is said to have refused it, with what to do', async ({ page, errors }) => {
  const { received, state } = await setUp(page, true);
  state.status = 400;
  await page.goto('index.html?study=studies/pandalm-sent.json&slot=6');
  await completeStudy(page);
  const status = page.getByRole('region', { name: 'Sending your ratings to the researcher' }).getByRole('status');
  await expect(status).toContainText("The researcher's service refused it (HTTP 400)");
  await expect(status).toContainText('send it to the researcher yourself');
  expect(received).toHaveLength(0);
  // A service in trouble: try again later; it then takes the file.
  state.status = 503;
  await page.getByRole('button', { name: 'Send again' }).click();
  await expect(status).toContainText('not taking files just now (HTTP 503)');
  state.status = 200;
  await page.getByRole('button', { name: 'Send again' }).click();
  await expect(status).toContainText('Sent to the researcher');
  expect(received).toHaveLength(1);
  // The browser logs each error answer to the console.
  expect(errors.filter((e) => !/status of (400|503)/.test(e))).toEqual([]);
});
