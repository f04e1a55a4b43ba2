// Intent: on a shared computer (a lab), a participant who has saved or sent their ratings file
// can remove their answers from the browser before leaving: their session, the record of what
// was sent and their set-aside copies go, after a confirmation; another participant's stay.
import { test, expect } from './fixtures';
import { completeStudy } from './session';

const jurorKeys = (page: import('@playwright/test').Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror')).sort());

test('"Remove my answers from this browser" removes this participant\'s answers only, once confirmed', async ({ page, errors }) => {
  // An earlier participant, part way through.
  await page.goto('index.html?study=studies/pandalm.json&annotator=first');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect.poll(() => jurorKeys(page)).toHaveLength(1);
  const [earlier] = await jurorKeys(page);
  expect(earlier).toMatch(/^juror\/v1\/[0-9a-f]{64}\/\d+\/first$/);

  await page.goto('index.html?study=studies/pandalm.json&annotator=second');
  await completeStudy(page);
  const mine = (await jurorKeys(page)).find((k) => k.endsWith('/second'))!;
  // What else the page keeps of this participant: a record of sending, a set-aside copy.
  await page.evaluate((key) => {
    localStorage.setItem(`juror-outbox/${key}`, 'digest');
    localStorage.setItem(`juror-quarantine/5/${key}`, '{damaged');
  }, mine);
  const remove = page.getByRole('button', { name: 'Remove my answers from this browser' });
  // Not before the file is saved or sent.
  await expect(remove).toHaveCount(0);
  await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  // Asked first; "Cancel" removes nothing.
  await remove.click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect(await jurorKeys(page)).toHaveLength(4);
  await remove.click();
  await page.getByRole('button', { name: 'Yes, remove my answers' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your answers have been removed from this browser' })).toBeVisible();
  // Only the record of the removal is left of this participant (every tab honours it).
  expect(await jurorKeys(page)).toEqual([`juror-removed/${mine}`, earlier]);
  // Coming back with the same link starts afresh.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  expect(errors).toEqual([]);
});
