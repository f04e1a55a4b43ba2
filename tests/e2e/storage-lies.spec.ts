// Intent: the browser accepts every save but may not keep them: a private window deletes
// everything when closed, a browser that made no promise may clear a site's storage, and Safari
// deletes it after seven days without a visit. What can be detected is said
// plainly, and the annotator is asked for a backup at sensible moments.
import { test, expect } from './fixtures';
import { answerEverything, openStudy } from './session';

async function begin(page: import('@playwright/test').Page, slot: number) {
  await openStudy(page, 'financial-analysis.json', slot);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
}

test('every 20 trials without a storage promise, a backup is asked for, and saving one quiets it', async ({ page, errors }) => {
  // This browser, like most, makes no promise to keep the site's storage (persisted: false).
  await begin(page, 5);
  const reminder = page.getByRole('status').filter({ hasText: 'since your last backup' });
  for (let trial = 1; trial <= 20; trial++) {
    await expect(reminder).toHaveCount(0);
    await answerEverything(page);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Trial ${trial + 1}`);
  }
  await expect(reminder).toContainText('20 trials done since your last backup.');
  const [backup] = await Promise.all([
    page.waitForEvent('download'),
    reminder.getByRole('button', { name: 'Save a backup' }).click(),
  ]);
  expect(backup.suggestedFilename()).toMatch(/\.json$/);
  await expect(reminder).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a private window is recognised by its small quota and said plainly', async ({ page, errors }) => {
  // Private windows give a site tens of megabytes; ordinary profiles gigabytes.
  await page.addInitScript(() => {
    navigator.storage.estimate = async () => ({ quota: 60 * 1024 * 1024, usage: 0 });
  });
  await openStudy(page, 'financial-analysis.json', 6);
  const banner = page.getByRole('status').filter({ hasText: 'This looks like a private window' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Save a backup' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('coming back after days away reminds of browsers that delete after seven', async ({ page, context, errors }) => {
  // The annotator does a trial and closes the tab.
  const before = await context.newPage();
  await begin(before, 7);
  await answerEverything(before);
  await before.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(before.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
  await before.close();
  // Five days later, the link opens on the trial left.
  await page.clock.install({ time: Date.now() + 5 * 86_400_000 });
  await page.goto('index.html?study=studies/financial-analysis.json&slot=7');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
  const banner = page.getByRole('status').filter({ hasText: 'Welcome back' });
  await expect(banner).toContainText('your answers were last saved 5 days ago');
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);
  expect(errors).toEqual([]);
});
