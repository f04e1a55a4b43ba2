// Intent: an annotator loses the connection mid-study (a train, a flaky Wi-Fi) and reloads:
// the app, the study and its images come from the service worker, and every answer is there.
import { test, expect, root } from './fixtures';
import { answerEverything, openStudy } from './session';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';

// The worker must run here: it is what this spec is about.
test.use({ serviceWorkers: 'allow' });

const study = 'reasoning-trajectories.json';

function controlled(page: Page) {
  return page.evaluate(() => navigator.serviceWorker.controller !== null);
}

/** Waits until the service worker controls the page; reloads once (online) if it never does. */
async function waitForControl(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  try {
    // The worker claims its clients when it activates, so the first load is normally enough.
    await expect.poll(() => controlled(page), { timeout: 5_000 }).toBe(true);
  } catch {
    await page.reload();
    await expect.poll(() => controlled(page)).toBe(true);
  }
}

/**
 * Goes offline with an empty HTTP cache, so that whatever loads next comes from the service
 * worker's caches and from nowhere else (a real browser's HTTP cache expires; GitHub Pages
 * serves with max-age=600).
 */
async function goOffline(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  await context.setOffline(true);
}

/** Start, Begin, answer trial 1 and move on to trial 2. */
async function firstTrialDone(page: Page) {
  await openStudy(page, study, 1);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Trial 1');
  await answerEverything(page);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(heading).toHaveText('Trial 2');
}

/** Part of trial 2: one score for each trajectory and a note. */
async function halfOfTrial2(page: Page) {
  await page.getByRole('radiogroup', { name: 'Correctness — Trajectory A' }).getByRole('radio', { name: '3 Partly right' }).check();
  await page.getByRole('radiogroup', { name: 'Coherence / Logicality — Trajectory B' }).getByRole('radio', { name: '4 Good' }).check();
  await page.getByRole('textbox', { name: 'Notes' }).fill('Written before the train entered the tunnel.');
}

async function expectTrial2Answers(page: Page) {
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Trial 2');
  await expect(page.getByText('Trial 2 of 9 · 1 done')).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Correctness — Trajectory A' }).getByRole('radio', { name: '3 Partly right' })).toBeChecked();
  await expect(page.getByRole('radiogroup', { name: 'Coherence / Logicality — Trajectory B' }).getByRole('radio', { name: '4 Good' })).toBeChecked();
  await expect(page.locator('fieldset[data-rate] input:checked')).toHaveCount(2);
  await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('Written before the train entered the tunnel.');
  // The trial's image (studies/media/…) is drawn from the worker's cache.
  const image = page.locator('figure.media img');
  await expect(image).toHaveAttribute('src', /^studies\/media\/.+\.svg$/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // Trial 1 kept its answers: six scores (two trajectories, three dimensions).
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(heading).toHaveText('Trial 1');
  await expect(page.locator('fieldset[data-rate] input:checked')).toHaveCount(6);
}

test('a reload while offline reopens the same trial with every answer, the study and its images', async ({ page, context, errors }) => {
  await firstTrialDone(page);
  await waitForControl(page);
  // One more load while online and controlled (an annotator who came back to the tab): the
  // worker caches the study file as the app fetches it.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
  expect(await controlled(page)).toBe(true);
  await halfOfTrial2(page);

  await goOffline(context, page);
  await page.reload();
  await expectTrial2Answers(page);
  expect(await controlled(page)).toBe(true);
  // What made that work: the study and the image are in the worker's runtime cache.
  const cached = await page.evaluate(async () => {
    const cache = await caches.open('juror-runtime');
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
  expect(cached).toContain('/juror/studies/reasoning-trajectories.json');
  expect(cached.some((p) => p.startsWith('/juror/studies/media/'))).toBe(true);
  // The app shell is the annotator's files only: never the researcher's Analyse page.
  const shell = await page.evaluate(async () => {
    const name = (await caches.keys()).find((k) => k.startsWith('juror-shell-'));
    return name ? (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname) : [];
  });
  expect(shell.some((p) => /\/juror-app-[0-9a-f]+_bg\.wasm$/.test(p))).toBe(true);
  expect(shell.filter((p) => p.includes('analyse'))).toEqual([]);
  expect(errors).toEqual([]);
});

test('the first visit alone is enough to reopen the study offline', async ({ page, context, errors }) => {
  // The first visit puts the study file and its media into the offline cache itself
  // (services::offline::keep_for_offline): the worker does not control that first page yet.
  await firstTrialDone(page);
  await waitForControl(page);
  await halfOfTrial2(page);
  await goOffline(context, page);
  await page.reload();
  await expectTrial2Answers(page);
  expect(errors).toEqual([]);
});

test('a trial video plays and seeks offline, from the worker cache, in byte ranges', async ({ page, context, errors }) => {
  // Browsers fetch video in byte ranges, which the Cache API cannot store: the worker answers a
  // ranged request by slicing the whole cached file (assets/sw.template.js, `ranged`).
  await openStudy(page, 'video-trajectories.json', 1);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Trial 1');
  await waitForControl(page);

  const video = page.locator('figure.media video');
  const src = await video.getAttribute('src');
  expect(src).toMatch(/^studies\/media\/[a-z]+\.webm$/);
  await expect(video).toHaveAccessibleName(/four-second animation/);

  /** Plays the video muted (autoplay rules), waits until it has played a second, then seeks. */
  async function playsAndSeeks() {
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(1);
    expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeCloseTo(4, 0);
    await video.evaluate((v: HTMLVideoElement) => {
      v.pause();
      v.currentTime = 3.5;
    });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => !v.seeking && v.readyState >= 2 && Math.abs(v.currentTime - 3.5) < 0.01))
      .toBe(true);
  }

  await page.reload();
  await expect(heading).toHaveText('Trial 1');
  expect(await controlled(page)).toBe(true);
  await playsAndSeeks();

  await goOffline(context, page);
  await page.reload();
  await expect(heading).toHaveText('Trial 1');
  await playsAndSeeks();

  // The worker's answers to ranged requests, offline: a middle slice, a suffix, and a range past
  // the end of the file.
  const answers = await page.evaluate(async (url) => {
    const whole = (await (await fetch(url)).arrayBuffer()).byteLength;
    const ask = async (range: string) => {
      const r = await fetch(url, { headers: { Range: range } });
      return { status: r.status, range: r.headers.get('Content-Range'), bytes: (await r.arrayBuffer()).byteLength };
    };
    return { whole, middle: await ask('bytes=100-199'), suffix: await ask('bytes=-10'), past: await ask(`bytes=${whole + 5}-`) };
  }, src!);
  expect(answers.whole).toBeGreaterThan(1000);
  expect(answers.middle).toEqual({ status: 206, range: `bytes 100-199/${answers.whole}`, bytes: 100 });
  expect(answers.suffix).toEqual({ status: 206, range: `bytes ${answers.whole - 10}-${answers.whole - 1}/${answers.whole}`, bytes: 10 });
  expect(answers.past).toEqual({ status: 416, range: `bytes */${answers.whole}`, bytes: 0 });
  // The only console message is the browser's note on that deliberate 416.
  expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 416 ()']);
});

test('a ranged request for a file not cached yet is answered as it streams in, and the file is cached whole', async ({ page, context, errors }) => {
  // On a cache miss the worker fetches the whole file once: one branch goes to the cache, the
  // other through a byte filter to the page (assets/sw.template.js, `ranged`), so the range is
  // answered as soon as its bytes arrive, not after the whole file.
  await openStudy(page, 'pandalm.json', 3);
  await waitForControl(page);
  const file = 'studies/media/bounce.webm';
  const bytes = [...fs.readFileSync(path.join(root, 'assets', file))];
  const ask = (range: string) =>
    page.evaluate(
      async ({ file, range }) => {
        const r = await fetch(file, { headers: { Range: range } });
        return { status: r.status, range: r.headers.get('Content-Range'), body: [...new Uint8Array(await r.arrayBuffer())] };
      },
      { file, range },
    );
  const cached = () =>
    page.evaluate(async (file) => {
      const hit = await (await caches.open('juror-runtime')).match(new URL(file, location.href).href);
      return hit ? (await hit.arrayBuffer()).byteLength : 0;
    }, file);
  expect(await cached()).toBe(0);
  const first = await ask('bytes=100-199');
  expect(first).toEqual({ status: 206, range: `bytes 100-199/${bytes.length}`, body: bytes.slice(100, 200) });
  const open = await ask('bytes=3000-');
  expect(open.range).toBe(`bytes 3000-${bytes.length - 1}/${bytes.length}`);
  expect(open.body).toEqual(bytes.slice(3000));
  // The whole file reached the cache: offline, ranges are sliced from it.
  await expect.poll(cached).toBe(bytes.length);
  await goOffline(context, page);
  expect(await ask('bytes=-10')).toEqual({ status: 206, range: `bytes ${bytes.length - 10}-${bytes.length - 1}/${bytes.length}`, body: bytes.slice(-10) });
  await context.setOffline(false);
  expect(errors).toEqual([]);
});

test('the worker answers only the app page with the app: a study file opened in a tab is the file', async ({ page, errors }) => {
  // Only navigations to the app's own pages get index.html, not every navigation in scope.
  await openStudy(page, 'pandalm.json', 1);
  await waitForControl(page);
  const response = await page.goto('studies/pandalm.json');
  expect(response?.headers()['content-type']).toContain('json');
  // The file as the site serves it: compiled by the build.
  await expect(page.locator('body')).toContainText('"format":"juror.compiled/3"');
  // The app's own page still comes from the shell, query and all.
  await page.goto('index.html?study=studies/pandalm.json&slot=2');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  expect(await controlled(page)).toBe(true);
  // Showing a JSON file, the browser asks the server for /favicon.ico, which is not there.
  expect(errors.filter((e) => !e.includes('status of 404'))).toEqual([]);
});
