// Intent: the first and last pages speak the annotator's words and keep their promises: the
// welcome page says how many pages there are to judge (and a time only when the study gives
// one), the study's contact is a mailto: link wherever it appears, and the finish page's
// debriefing, shown once the ratings file is saved, is still there when the annotator comes back.
import * as fs from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, fixture } from './fixtures';
import { compiled } from './compile';
import { completeStudy } from './session';

/** The minimal study (two items, one pair each) with a contact and a debriefing, served at `name`. */
async function serve(page: Page, name: string, extra: Record<string, unknown> = {}) {
  const study = JSON.parse(fs.readFileSync(fixture('valid/minimal.json'), 'utf8'));
  Object.assign(study, {
    contact: 'Kitchen Lab, kitchen-lab@example.org',
    debrief: 'You compared two assistants; which was which stays hidden.',
    ...extra,
  });
  await page.route(`**/studies/${name}`, (route) =>
    route.fulfill({ body: compiled(study), contentType: 'application/json' }),
  );
}

test('the welcome page counts pages to judge, says no time it was not given, and links the contact', async ({ page, errors }) => {
  await serve(page, 'no-time.json');
  await page.goto('index.html?study=studies/no-time.json&slot=1');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  const pages = page.locator('.facts div', { has: page.getByText('Pages to judge', { exact: true }) });
  await expect(pages.locator('dd')).toHaveText('2');
  await expect(page.getByText('Trials', { exact: true })).toHaveCount(0);
  await expect(page.getByText('Items', { exact: true })).toHaveCount(0);
  await expect(page.getByText('Estimated time', { exact: true })).toHaveCount(0);
  const contact = page.locator('.welcome .contact');
  await expect(contact).toHaveText('Questions? Kitchen Lab, kitchen-lab@example.org');
  await expect(contact.getByRole('link', { name: 'kitchen-lab@example.org' })).toHaveAttribute(
    'href',
    'mailto:kitchen-lab@example.org',
  );
  expect(errors).toEqual([]);
});

test('with estimated_minutes, the welcome page gives the time', async ({ page }) => {
  await serve(page, 'timed.json', { estimated_minutes: 10 });
  await page.goto('index.html?study=studies/timed.json&slot=1');
  const time = page.locator('.facts div', { has: page.getByText('Estimated time', { exact: true }) });
  await expect(time.locator('dd')).toHaveText('10 minutes');
});

test('the debriefing shown once the file is saved is there again when the annotator comes back', async ({ page, errors }) => {
  await serve(page, 'debriefed.json');
  await page.goto('index.html?study=studies/debriefed.json&slot=1');
  await completeStudy(page);
  const debrief = page.getByRole('heading', { name: 'About this study' });
  await expect(page.getByText('Once you have saved your ratings file, a note')).toBeVisible();
  await expect(debrief).toHaveCount(0);
  // The finish page links the same contact, with the file to attach named in the message.
  const mail = page.locator('.finished .contact').getByRole('link', { name: 'kitchen-lab@example.org' });
  expect(decodeURIComponent((await mail.getAttribute('href'))!)).toMatch(/^mailto:kitchen-lab@example\.org\?subject=Ratings for Minimal study&body=/);

  await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  await expect(debrief).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you — you have finished' })).toBeVisible();
  await expect(debrief).toBeVisible();
  await expect(page.getByText('Once you have saved your ratings file, a note')).toHaveCount(0);
  expect(errors).toEqual([]);
});
