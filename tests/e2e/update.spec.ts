// Intent: the researcher deploys a new build while an annotator is mid-study. The annotator is
// told a new version is ready, reloads when they choose, and lands on the same trial with every
// answer.
//
// The browser fetches sw.js for an update check itself, past page.route and context.route, so
// a new deployment cannot be faked by routing. Instead this spec serves its own copy of dist/
// (under /juror/, like the main server) from a temporary directory on another port, and edits
// that copy's sw.js the way a new build would.
import { test, expect } from './fixtures';
import { answerEverything } from './session';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Page } from '@playwright/test';

test.use({ serviceWorkers: 'allow' });

const dist = path.resolve(__dirname, '../../dist');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A copy of dist/ served at http://127.0.0.1:<port>/juror/ by a server of this test's own. */
async function ownSite(dir: string): Promise<{ origin: string; site: string; server: ChildProcess }> {
  const site = path.join(dir, 'juror');
  fs.cpSync(dist, site, { recursive: true, dereference: true });
  // Deployed a minute ago, as a real deployment is older than the next one: the server gives
  // Last-Modified in whole seconds, and the browser checks sw.js for an update with
  // If-Modified-Since, so a new sw.js written within the same second as the copy would be
  // answered "304 Not Modified" and never found.
  const deployed = new Date(Date.now() - 60_000);
  for (const name of fs.readdirSync(site, { recursive: true }) as string[]) {
    fs.utimesSync(path.join(site, name), deployed, deployed);
  }
  const port = await freePort();
  const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dir], {
    stdio: 'ignore',
  });
  const origin = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => {
      try {
        return (await fetch(`${origin}/juror/index.html`)).status;
      } catch {
        return 0;
      }
    })
    .toBe(200);
  return { origin, site, server };
}

/** The version of the build whose worker controls the page. */
function controllerVersion(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        navigator.serviceWorker.addEventListener('message', (e) => {
          if (e.data?.type === 'VERSION') resolve(e.data.version);
        });
        navigator.serviceWorker.controller!.postMessage({ type: 'VERSION' });
      }),
  );
}

test('a new deployment mid-study is offered, and reloading keeps the trial and every answer', async ({ page, errors }, testInfo) => {
  const { origin, site, server } = await ownSite(testInfo.outputPath('site'));
  try {
    await page.goto(`${origin}/juror/index.html?study=studies/work-intake.json&slot=5`);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Begin' }).click();
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText('Trial 1');
    await answerEverything(page);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(heading).toHaveText('Trial 2');
    await page.getByRole('radiogroup', { name: 'Relevance — System C' }).getByRole('radio', { name: /2 / }).check();
    await page.getByRole('textbox', { name: 'Notes' }).fill('Note written under the old build.');

    // The first build's worker runs the page.
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const oldVersion = await controllerVersion(page);
    const update = page.getByRole('status').filter({ hasText: 'A new version of Juror is available' });
    await expect(update).toHaveCount(0);

    // The new build is deployed: a new sw.js (new version) beside the same files.
    const swPath = path.join(site, 'sw.js');
    const sw = fs.readFileSync(swPath, 'utf8');
    const newVersion = `${oldVersion}-next`;
    expect(sw).toContain(`const VERSION = "${oldVersion}";`);
    fs.writeFileSync(swPath, sw.replace(`const VERSION = "${oldVersion}";`, `const VERSION = "${newVersion}";`));
    // The browser checks for updates on navigations and every 24 hours; ask now.
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration!.update();
    });

    await expect(update).toHaveText('A new version of Juror is available. Reloading keeps every answer.Reload');
    // Nothing changed under the annotator's hands until they choose to reload.
    await expect(heading).toHaveText('Trial 2');
    await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('Note written under the old build.');
    const reloaded = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.getByRole('button', { name: 'Reload' }).click();

    // The new worker takes over and the page reloads under it.
    await reloaded;
    await expect(heading).toHaveText('Trial 2');
    await expect.poll(() => controllerVersion(page).catch(() => 'navigating')).toBe(newVersion);
    await expect(heading).toHaveText('Trial 2');
    await expect(page.getByText('Trial 2 of 9 · 1 done')).toBeVisible();
    await expect(page.getByRole('radiogroup', { name: 'Relevance — System C' }).getByRole('radio', { name: /2 / })).toBeChecked();
    await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('Note written under the old build.');
    await expect(update).toHaveCount(0);
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(heading).toHaveText('Trial 1');
    await expect(page.locator('fieldset[data-rate] input:checked')).toHaveCount(12);
    // The old build's cache is gone; the new one holds the shell.
    const shells = await page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('juror-shell-')));
    expect(shells).toEqual([`juror-shell-${newVersion}`]);
    expect(errors).toEqual([]);
  } finally {
    server.kill();
  }
});

test('a new deployment found when the annotator reloads is offered too', async ({ page, errors }, testInfo) => {
  const { origin, site, server } = await ownSite(testInfo.outputPath('site'));
  try {
    await page.goto(`${origin}/juror/index.html?study=studies/work-intake.json&slot=6`);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Begin' }).click();
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText('Trial 1');
    await page.getByRole('textbox', { name: 'Notes' }).fill('Note written under the old build.');
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const oldVersion = await controllerVersion(page);
    const swPath = path.join(site, 'sw.js');
    const sw = fs.readFileSync(swPath, 'utf8');
    const newVersion = `${oldVersion}-next`;
    fs.writeFileSync(swPath, sw.replace(`const VERSION = "${oldVersion}";`, `const VERSION = "${newVersion}";`));
    // The annotator reloads on their own; the browser checks sw.js as the page loads.
    await page.reload();
    await expect(heading).toHaveText('Trial 1');
    const update = page.getByRole('status').filter({ hasText: 'A new version of Juror is available' });
    await expect(update).toBeVisible();
    const reloaded = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect(heading).toHaveText('Trial 1');
    await expect.poll(() => controllerVersion(page).catch(() => 'navigating')).toBe(newVersion);
    await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('Note written under the old build.');
    expect(errors).toEqual([]);
  } finally {
    server.kill();
  }
});

/** Opens work-intake at `slot` on the test's own site and goes to its first trial. */
async function toFirstTrial(page: Page, origin: string, slot: number) {
  await page.goto(`${origin}/juror/index.html?study=studies/work-intake.json&slot=${slot}`);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
}

/**
 * Deploys a "new build" into `site` the way a real one arrives: the app's bundles under new
 * hashed names, the old ones gone, index.html naming the new ones (with its policy's script hash
 * recomputed), and sw.js with a new version, the new list of files and the new index.html's
 * SHA-256. With `missing`, the new sw.js also names a file the deployment lacks.
 */
function deployNewBundles(site: string, oldVersion: string, missing = false): { newVersion: string; bundle: string } {
  const old = fs.readdirSync(site).find((f) => /^juror-app-[0-9a-f]+\.js$/.test(f))!.replace(/\.js$/, '');
  const bundle = `${old}0next`;
  const files = fs.readdirSync(site).filter((f) => f.startsWith(old));
  for (const f of files) {
    fs.renameSync(path.join(site, f), path.join(site, f.replace(old, bundle)));
  }
  // The bundle's scripts name each other's files (the app's glue its loader of the later
  // pages, the loader the glue and the pages' wasm): a new build's by their new names. (Only
  // file names: the name the wasm imports its glue by stays as the wasm has it.)
  const integrity: Record<string, string> = {};
  for (const f of fs.readdirSync(site).filter((f) => f.startsWith(bundle) && f.endsWith('.js'))) {
    let text = fs.readFileSync(path.join(site, f), 'utf8');
    for (const name of files) text = text.replaceAll(`./${name}`, `./${name.replace(old, bundle)}`);
    fs.writeFileSync(path.join(site, f), text);
    integrity[f] = `sha384-${createHash('sha384').update(text, 'utf8').digest('base64')}`;
  }
  let index = fs.readFileSync(path.join(site, 'index.html'), 'utf8').replaceAll(old, bundle);
  for (const [f, sri] of Object.entries(integrity)) {
    index = index.replace(new RegExp(`(<link [^>]*href="\\./${f.replaceAll('.', '\\.')}"[^>]*integrity=")[^"]*"`), `$1${sri}"`);
  }
  const script = index.match(/<script type="module">([\s\S]*?)<\/script>/)![1];
  const digest = createHash('sha256').update(script, 'utf8').digest('base64');
  index = index.replace(/'sha256-[A-Za-z0-9+/=]+'/, `'sha256-${digest}'`);
  fs.writeFileSync(path.join(site, 'index.html'), index);
  const newVersion = `${oldVersion}-bundles`;
  const indexSha256 = createHash('sha256').update(index, 'utf8').digest('hex');
  let sw = fs
    .readFileSync(path.join(site, 'sw.js'), 'utf8')
    .replaceAll(old, bundle)
    .replace(`const VERSION = "${oldVersion}";`, `const VERSION = "${newVersion}";`)
    .replace(/const INDEX_SHA256 = "[0-9a-f]{64}";/, `const INDEX_SHA256 = "${indexSha256}";`);
  expect(sw).toContain(indexSha256);
  if (missing) sw = sw.replace('const PRECACHE = [', 'const PRECACHE = ["./not-deployed.js", ');
  fs.writeFileSync(path.join(site, 'sw.js'), sw);
  return { newVersion, bundle };
}

test('a deployment with new bundles (the old ones deleted) takes over whole, with every answer', async ({ page, errors }, testInfo) => {
  const { origin, site, server } = await ownSite(testInfo.outputPath('site'));
  try {
    await toFirstTrial(page, origin, 7);
    const heading = page.getByRole('heading', { level: 1 });
    await page.getByRole('radiogroup', { name: 'Relevance — System A' }).getByRole('radio').nth(2).check();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const oldVersion = await controllerVersion(page);
    const { newVersion, bundle } = deployNewBundles(site, oldVersion);
    const fetched: string[] = [];
    page.on('requestfinished', (r) => fetched.push(new URL(r.url()).pathname));
    await page.reload();
    await expect(heading).toHaveText('Trial 1');
    const update = page.getByRole('status').filter({ hasText: 'A new version of Juror is available' });
    await expect(update).toBeVisible();
    const reloaded = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect(heading).toHaveText('Trial 1');
    await expect.poll(() => controllerVersion(page).catch(() => 'navigating')).toBe(newVersion);
    // The new page runs the new bundles, and the old ones (gone from the site) are not asked for.
    expect(await page.evaluate(() => [...document.scripts].map((s) => s.textContent).join(' '))).toContain(bundle);
    expect(fetched.filter((p) => p.includes(bundle)).length).toBeGreaterThan(0);
    await expect(page.getByRole('radiogroup', { name: 'Relevance — System A' }).getByRole('radio').nth(2)).toBeChecked();
    // Offline, the new build opens from the new cache alone.
    await page.context().setOffline(true);
    await page.reload();
    await expect(heading).toHaveText('Trial 1');
    await page.context().setOffline(false);
    expect(errors).toEqual([]);
  } finally {
    server.kill();
  }
});

/** The state a new worker reaches after an update check: 'installed' or 'redundant'. */
function newWorkerState(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        navigator.serviceWorker.getRegistration().then((reg) => {
          reg!.addEventListener('updatefound', () => {
            const worker = reg!.installing!;
            worker.addEventListener('statechange', () => {
              if (worker.state === 'redundant' || worker.state === 'installed') resolve(worker.state);
            });
          });
          reg!.update().catch(() => resolve('update failed'));
        });
      }),
  );
}

test('a new sw.js served with a stale index.html (a CDN edge behind) never takes over', async ({ page, errors }, testInfo) => {
  const { origin, site, server } = await ownSite(testInfo.outputPath('site'));
  try {
    await toFirstTrial(page, origin, 9);
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const oldVersion = await controllerVersion(page);
    // The new build is deployed whole, but the edge still serves the old index.html, which
    // names bundles that are gone: every file of the new list is there, only index.html is not
    // the new build's.
    const oldIndex = fs.readFileSync(path.join(site, 'index.html'));
    deployNewBundles(site, oldVersion);
    fs.writeFileSync(path.join(site, 'index.html'), oldIndex);
    expect(await newWorkerState(page)).toBe('redundant');
    await expect(page.getByRole('status').filter({ hasText: 'A new version of Juror is available' })).toHaveCount(0);
    expect(await controllerVersion(page)).toBe(oldVersion);
    // The running version still opens, offline too, from its own cache.
    await page.context().setOffline(true);
    await page.reload();
    await expect(heading).toHaveText('Trial 1');
    await page.context().setOffline(false);
    expect(errors).toEqual([]);
  } finally {
    server.kill();
  }
});

test('an update prunes the runtime cache: older Analyse bundles go, and the oldest beyond its limit', async ({ page, errors }, testInfo) => {
  const { origin, site, server } = await ownSite(testInfo.outputPath('site'));
  try {
    await toFirstTrial(page, origin, 10);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const oldVersion = await controllerVersion(page);
    const limit = Number(/const RUNTIME_LIMIT = (\d+);/.exec(fs.readFileSync(path.join(site, 'sw.js'), 'utf8'))![1]);
    // The runtime cache as months of use leave it: an Analyse bundle of an older build, and
    // more files than the limit; then the study file, fetched again (the newest entry).
    const study = `${origin}/juror/studies/work-intake.json`;
    await page.evaluate(
      async ({ origin, limit }) => {
        const cache = await caches.open('juror-runtime');
        await cache.put(`${origin}/juror/juror-analyse-0000000000000000_bg.wasm`, new Response('old'));
        for (let i = 0; i < limit + 20; i++) await cache.put(`${origin}/juror/studies/media/old-${i}.png`, new Response(String(i)));
      },
      { origin, limit },
    );
    await page.evaluate((url) => fetch(url).then((r) => r.text()), study);
    const analyse = fs.readdirSync(site).find((f) => /^juror-analyse-[0-9a-f]+_bg\.wasm$/.test(f))!;
    await page.evaluate((url) => caches.open('juror-runtime').then((c) => c.add(url)), `${origin}/juror/${analyse}`);

    const swPath = path.join(site, 'sw.js');
    const newVersion = `${oldVersion}-next`;
    fs.writeFileSync(swPath, fs.readFileSync(swPath, 'utf8').replace(`const VERSION = "${oldVersion}";`, `const VERSION = "${newVersion}";`));
    await page.reload();
    const reloaded = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect.poll(() => controllerVersion(page).catch(() => 'navigating')).toBe(newVersion);

    const kept = await page.evaluate(async () => (await (await caches.open('juror-runtime')).keys()).map((r) => new URL(r.url).pathname));
    expect(kept.length).toBeLessThanOrEqual(limit);
    expect(kept).not.toContain('/juror/juror-analyse-0000000000000000_bg.wasm');
    expect(kept).toContain(`/juror/${analyse}`);
    expect(kept).toContain('/juror/studies/work-intake.json');
    expect(kept).not.toContain('/juror/studies/media/old-0.png');
    expect(kept).toContain(`/juror/studies/media/old-${limit + 19}.png`);
    expect(errors).toEqual([]);
  } finally {
    server.kill();
  }
});

test('a deployment missing one of its files never takes over: the running version goes on', async ({ page, errors }, testInfo) => {
  const { origin, site, server } = await ownSite(testInfo.outputPath('site'));
  try {
    await toFirstTrial(page, origin, 8);
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const oldVersion = await controllerVersion(page);
    deployNewBundles(site, oldVersion, true);
    // The browser checks sw.js; the new worker's install fails (one file is missing), so it is
    // dropped: no update is offered, and the old worker, with every old file, still runs.
    expect(await newWorkerState(page)).toBe('redundant');
    await expect(page.getByRole('status').filter({ hasText: 'A new version of Juror is available' })).toHaveCount(0);
    expect(await controllerVersion(page)).toBe(oldVersion);
    await page.context().setOffline(true);
    await page.reload();
    await expect(heading).toHaveText('Trial 1');
    await page.context().setOffline(false);
    expect(errors).toEqual([]);
  } finally {
    server.kill();
  }
});
