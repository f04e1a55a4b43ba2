// Intent: an annotator with a working link reads the study's welcome page as soon as the study
// is in, before the app's own code has arrived (the first download carries only that page), and
// cannot tell when the app takes over (one builder makes both pages:
// src/services/welcome_page.rs): the same page, the same focus, a Start already pressed still
// counts; the session's code comes with the app's, so a connection lost once the page is up
// loses nothing; when the app's code cannot be fetched, the page says so and offers Reload.
import type { Page, Route } from '@playwright/test';
import { test, expect, exampleStudies } from './fixtures';

const appWasm = /\/juror-app-[0-9a-f]+_app\.wasm$/;
const sessionWasm = /\/juror-app-[0-9a-f]+_later\.wasm$/;

/** Holds every request matching `pattern` until the returned function is called. */
async function hold(page: Page, pattern: RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The page's `<main>` as a string that ignores what the eye and a screen reader do not see:
 * comments, the order of attributes, runs of white space, and where text nodes are split. */
async function canonicalMain(page: Page): Promise<string> {
  return page.locator('main').evaluate((main) => {
    const walk = (node: Node): string => {
      if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
      if (node.nodeType !== Node.ELEMENT_NODE) return '';
      const el = node as Element;
      const attrs = [...el.attributes].map((a) => `${a.name}="${a.value}"`).sort().join(' ');
      const inner = [...el.childNodes].map(walk).join('');
      return `<${el.tagName.toLowerCase()} ${attrs}>${inner}</${el.tagName.toLowerCase()}>`;
    };
    return walk(main).replace(/\s+/g, ' ');
  });
}

/** Waits until the app has put its own `<main>` in place of the first page's. */
async function appMounted(page: Page, first: Awaited<ReturnType<Page['$']>>) {
  await page.waitForFunction((el) => !el?.isConnected, first);
}

test("every example's welcome page is up before the app's code, and stays as it was when the app takes over", async ({ context }) => {
  for (const { file, title } of exampleStudies()) {
    // A page of its own for each study: leaving one while its session's code is held would
    // abort that fetch, which the page reports as an error.
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    await hold(page, sessionWasm);
    const release = await hold(page, appWasm);
    await page.goto(`index.html?study=studies/${file}&slot=1`);
    // The welcome page, built by the first module alone: a region named by the study's title,
    // the facts as a description list, Start, and the way to continue from a ratings file.
    const welcome = page.getByRole('region', { name: title });
    await expect(welcome.getByRole('heading', { level: 1, name: title }), file).toBeVisible();
    await expect(welcome.getByRole('term').first(), file).toHaveText('Pages to judge');
    await expect(welcome.getByRole('definition').first(), file).toHaveText(/^[1-9][0-9]*$/);
    await expect(welcome.locator('p.reassure').first(), file).toContainText('saved in this browser');
    await expect(welcome.getByRole('button', { name: 'Start' }), file).toBeEnabled();
    await expect(welcome.locator('#restore > summary'), file).toHaveText('Continue from a downloaded ratings file');
    expect(await page.title(), file).toBe(`${title} — Juror`);
    const first = await page.$('main');
    const before = await canonicalMain(page);
    await page.getByRole('button', { name: 'Start' }).focus();
    release();
    await appMounted(page, first);
    // The app mounts the same builder's page in its place: nothing moves, the focus stays.
    await expect(page.getByRole('button', { name: 'Start' }), file).toBeFocused();
    expect(await canonicalMain(page), file).toBe(before);
    expect(await page.title(), file).toBe(`${title} — Juror`);
    expect(errors, file).toEqual([]);
    await page.close();
  }
});

test("Start pressed before the app's code is in starts the session once it is", async ({ page, errors }) => {
  const release = await hold(page, appWasm);
  await page.goto('index.html?study=studies/pandalm.json&slot=1');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('status')).toHaveText(/^Loading the study’s pages… On a slow connection this takes a few seconds, once/);
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
  // The one console error allowed is the browser's own line about a request that failed
  // offline (the study fetched again to keep it for reloading offline).
  expect(errors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
});

test("when the app's code cannot be fetched, the page says so, and Reload opens the study", async ({ page }) => {
  await page.route(appWasm, (route) => route.abort('internetdisconnected'));
  await page.goto('index.html?study=studies/pandalm.json&slot=1');
  const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
  await expect(alert).toBeVisible();
  await page.unroute(appWasm);
  await alert.getByRole('button', { name: 'Reload' }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
});

test("the session's code is fetched beside the app's, so going offline once the page is up loses nothing", async ({ page, context, errors }) => {
  const release = await hold(page, appWasm);
  const sessionIn = page.waitForResponse(sessionWasm);
  await page.goto('index.html?study=studies/pandalm.json&slot=1');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  // Requested while the app's code is still held: not only once the app has mounted.
  expect((await sessionIn).ok()).toBe(true);
  const first = await page.$('main');
  release();
  await appMounted(page, first);
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
  // The one console error allowed is the browser's own line about a request that failed
  // offline (the study fetched again to keep it for reloading offline).
  expect(errors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
});
