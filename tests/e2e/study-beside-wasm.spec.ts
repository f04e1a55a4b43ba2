// Intent: on a slow connection the annotator's page arrives sooner because the study is
// requested at once, beside the wasm, instead of after the wasm has downloaded and started;
// the app then uses that one response and never asks for the study twice, and when the study
// is in first, opens it at once; a study still on its way when the app starts gets a loading
// page only if it takes longer than a moment; the scripts the welcome page runs are compiled
// as they download.
import { test, expect } from './fixtures';
import { openStudy } from './session';

const study = 'pandalm.json';
const isStudy = (url: string) => new URL(url).pathname.endsWith(`/studies/${study}`);

test('the study is requested while the wasm is still downloading, and only once', async ({ page, errors }) => {
  // Every call of `fetch` the page makes, by address: the app must take the early request's
  // response rather than ask again.
  await page.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { fetchCalls: string[] }).fetchCalls = calls;
    const fetch = window.fetch.bind(window);
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
  });
  let studyRequested!: () => void;
  const studySeen = new Promise<void>((resolve) => (studyRequested = resolve));
  page.on('request', (request) => {
    if (isStudy(request.url())) studyRequested();
  });
  // The annotator's wasm is held back until the study's request has gone out. A page that
  // asked for the study only once its wasm had started would never ask while it is held: the
  // hold ends after 10 s so that the failure is this test's assertion, not a time-out.
  let studyBeforeWasm = false;
  await page.route(/\/juror-app-[0-9a-f]+_bg\.wasm$/, async (route) => {
    studyBeforeWasm = await Promise.race([
      studySeen.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
    ]);
    await route.continue();
  });

  await openStudy(page, study, 1);
  expect(studyBeforeWasm, 'the study was requested before the wasm arrived').toBe(true);
  const calls = await page.evaluate(() => (window as unknown as { fetchCalls: string[] }).fetchCalls);
  expect(calls.filter((url) => url.endsWith(`studies/${study}`))).toEqual([`studies/${study}`]);
  expect(errors).toEqual([]);
});

test('a study that is in before the wasm opens at once, with no loading page in between', async ({ page, errors }) => {
  // Every first-level heading the page ever shows, in order.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { headings: string[] }).headings = seen;
    new MutationObserver(() => {
      for (const h of document.querySelectorAll('h1')) {
        const text = h.textContent ?? '';
        if (seen[seen.length - 1] !== text) seen.push(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  // The wasm is held until the study's response has been received whole.
  let studyDone!: () => void;
  const studyIn = new Promise<void>((resolve) => (studyDone = resolve));
  page.on('requestfinished', (request) => {
    if (isStudy(request.url())) studyDone();
  });
  await page.route(/\/juror-app-[0-9a-f]+_bg\.wasm$/, async (route) => {
    await studyIn;
    await route.continue();
  });
  await openStudy(page, study, 1);
  const headings = await page.evaluate(() => (window as unknown as { headings: string[] }).headings);
  expect(headings.filter((h) => h.startsWith('Loading'))).toEqual([]);
  expect(headings.length).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

test('a study still on its way when the app starts gets a loading page only after a moment, then opens', async ({ page, errors }) => {
  // When the page's main region first appears (the app has started) and when a loading
  // heading first does, by the page's clock.
  await page.addInitScript(() => {
    const at: { main?: number; loading?: number } = {};
    (window as unknown as { seenAt: typeof at }).seenAt = at;
    new MutationObserver(() => {
      if (at.main === undefined && document.querySelector('main#main')) at.main = performance.now();
      const h = document.querySelector('h1');
      if (at.loading === undefined && h?.textContent?.startsWith('Loading the study')) at.loading = performance.now();
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  // The study is held until the loading page is up.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/studies\/pandalm\.json$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`index.html?study=studies/${study}&slot=1`);
  await expect(page.getByRole('heading', { level: 1, name: 'Loading the study…' })).toBeVisible();
  await expect(page.getByText(`studies/${study}`)).toBeVisible();
  const at = await page.evaluate(() => (window as unknown as { seenAt: { main: number; loading: number } }).seenAt);
  // Not at once: the page stays blank for the first half second (a study in by then opens with
  // no page in between; timers never fire early, so this cannot pass by luck).
  expect(at.loading - at.main).toBeGreaterThanOrEqual(450);
  release();
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  expect(errors).toEqual([]);
});

test("the welcome page's scripts ask Chrome to compile them as they arrive, and still run", async ({ page, errors }) => {
  // Chrome compiles a script that starts with this comment while it downloads, off the main
  // thread, instead of function by function on first call (docs/decisions.md, "Chrome's compile hint").
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (/\/juror-app-[0-9a-f]+(_split)?\.js$/.test(response.url())) scripts.push(await response.text());
  });
  await openStudy(page, study, 1);
  await expect.poll(() => scripts.length).toBe(2);
  for (const text of scripts) expect(text.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
  expect(errors).toEqual([]);
});
