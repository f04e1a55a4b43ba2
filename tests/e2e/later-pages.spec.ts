// Intent: the welcome page arrives without the session (its wasm, with every page after the
// welcome page, loads while the annotator reads it); an annotator who starts before it is in
// waits for it, and an annotator whose connection fails just then is told what to do and loses
// nothing; one who comes back with saved answers waits for the session, not on the welcome page;
// a click on Start is never lost to the session arriving between its press and its release.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { openStudy } from './session';

const later = /\/juror-app-[0-9a-f]+_later\.wasm$/;

/** Holds the session's wasm back until the returned function is called. */
async function holdSession(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(later, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('the welcome page is ready before the session arrives, and Start waits for it', async ({ page, errors }) => {
  const release = await holdSession(page);
  await openStudy(page, 'pandalm.json');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Loading the study’s pages…' })).toBeVisible();
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
  await expect(page.getByText('Loading the study’s pages…')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('when the session cannot be fetched, the annotator is asked to reload, and can start then', async ({ page }) => {
  await page.route(later, (route) => route.abort('internetdisconnected'));
  await openStudy(page, 'pandalm.json');
  await page.getByRole('button', { name: 'Start' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('Answers already given are kept in this browser');
  // Back online: Reload, and Start goes on.
  await page.unroute(later);
  await alert.getByRole('button', { name: 'Reload' }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
});

test('an annotator with saved answers waits for the session, not on the welcome page', async ({ page, errors }) => {
  await openStudy(page, 'pandalm.json');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
  const release = await holdSession(page);
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Loading the study’s pages…' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start' })).toHaveCount(0);
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a keyboard user on Start, with the restore form open, keeps both when the session arrives', async ({ page, errors }) => {
  const release = await holdSession(page);
  await openStudy(page, 'pandalm.json');
  await page.getByText('Continue from a downloaded ratings file').click();
  const start = page.getByRole('button', { name: 'Start' });
  await start.focus();
  release();
  // The session's welcome page is in once its restore form is.
  await expect(page.getByLabel('Restore from file')).toBeAttached();
  await expect(start).toBeFocused();
  await expect(page.locator('details.restore')).toHaveAttribute('open', '');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a click on Start pressed before the session arrives and released after it still starts', async ({ page, errors }) => {
  // Notes when the session's wasm is in (instantiated), without changing anything else.
  await page.addInitScript(() => {
    const instantiate = WebAssembly.instantiateStreaming;
    WebAssembly.instantiateStreaming = async function (source, imports) {
      const made = await instantiate.call(WebAssembly, source, imports);
      if (/_later\.wasm$/.test((await source).url)) (window as unknown as { sessionIn: boolean }).sessionIn = true;
      return made;
    };
  });
  const release = await holdSession(page);
  await openStudy(page, 'pandalm.json');
  // The welcome page first shown is replaced by the app's, Start at the same place, as soon as
  // the app's code is in: a button measured just as it is replaced has no box, so measure again.
  let start = null as { x: number; y: number; width: number; height: number } | null;
  await expect(async () => {
    start = await page.getByRole('button', { name: 'Start' }).boundingBox();
    expect(start).not.toBeNull();
  }).toPass();
  if (!start) throw new Error('no Start button');
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  release();
  await page.waitForFunction(() => (window as unknown as { sessionIn?: boolean }).sessionIn === true);
  await page.mouse.up();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
  expect(errors).toEqual([]);
});
