// Intent: a lab computer, one browser, participants one after another. The next participant
// sees no earlier participant's id or answers: the first page only counts the sessions kept,
// and a study address that fails lists only the saved answers of that study, so the right
// study's page (or the researcher) still gets them back.
import { test, expect } from './fixtures';
import * as fs from 'node:fs';
import type { Page } from '@playwright/test';

const id = 'p81234';

/** Participant 1 answers a trial of work-intake (study id `work-intake-planning`) and leaves. */
async function participantOne(page: Page) {
  await page.goto(`index.html?study=studies/work-intake.json&annotator=${id}`);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  await page.getByRole('radiogroup', { name: 'Relevance — System A' }).getByRole('radio').nth(3).check();
  await page.getByRole('textbox', { name: 'Notes' }).fill('Private note of participant one.');
  await expect
    .poll(() => page.evaluate(() => Object.values(localStorage).some((v) => v.includes('Private note of participant one.'))))
    .toBe(true);
}

/** Nothing of participant 1 on the page: neither the id nor any download of their answers. */
async function expectNothingOfParticipantOne(page: Page) {
  await expect(page.locator('main')).not.toContainText(id);
  await expect(page.locator('main')).not.toContainText('work-intake-planning');
  await expect(page.getByRole('region', { name: 'Answers saved in this browser' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Download/ })).toHaveCount(0);
}

test('the next participant sees no earlier id or answers; the study that failed still offers its own', async ({ page, errors }) => {
  await participantOne(page);

  // Participant 2 opens the first page: a count, nothing else.
  await page.goto('index.html');
  await expect(page.getByRole('heading', { level: 1, name: 'Juror' })).toBeVisible();
  await expect(page.getByText('Answers of 1 session are kept in this browser.')).toBeVisible();
  await expectNothingOfParticipantOne(page);
  // The page no longer claims that nothing is ever uploaded.
  await expect(page.getByText('Opening a study uploads nothing.')).toBeVisible();

  // An unrelated study that fails (a typo, a moved file): its problems page lists nothing.
  await page.goto('index.html?study=studies/another-study.json');
  await expect(page.getByRole('heading', { level: 1, name: 'This study could not be opened' })).toBeVisible();
  await expectNothingOfParticipantOne(page);
  // Nor does an unrelated file that is read but invalid, naming its own id.
  await page.route('**/studies/broken-other.json', (route) =>
    route.fulfill({ body: JSON.stringify({ id: 'some-other-study' }), contentType: 'application/json' }),
  );
  await page.goto('index.html?study=studies/broken-other.json');
  await expect(page.getByRole('heading', { level: 1, name: /^This study has \d+ problems?$/ })).toBeVisible();
  await expectNothingOfParticipantOne(page);

  // The study's own address, once it fails (published under its id, then taken down), lists
  // participant 1's saved answers for the researcher to download and recover.
  await page.goto('index.html?study=studies/gone/work-intake-planning.json');
  await expect(page.getByRole('heading', { level: 1, name: 'This study could not be opened' })).toBeVisible();
  const list = page.getByRole('region', { name: 'Answers saved in this browser' });
  await expect(list.getByText(new RegExp(`^work-intake-planning — slot \\d+, ${id}, saved`))).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    list.getByRole('button', { name: /^Download work-intake-planning/ }).click(),
  ]);
  const text = await fs.promises.readFile((await download.path())!, 'utf8');
  expect(text).toContain('Private note of participant one.');
  expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
});
