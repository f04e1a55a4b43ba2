// Intent: a lab computer, one browser, participants one after another. The next participant
// sees no earlier participant's id or answers: the first page only counts the sessions kept,
// and a study address that fails lists only the saved answers of the participant its link
// names (anyone can write the study's address; only the participant has their own link), so
// that participant (or the researcher) still gets them back. "Remove my answers" holds in every
// tab: another tab of the same session does not write them back.
import { test, expect } from './fixtures';
import * as fs from 'node:fs';
import type { Page } from '@playwright/test';
import { finishStudy } from './session';

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
  // The page claims only that opening a study uploads nothing, never that nothing is uploaded.
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

  // The study's own address, once it fails (published under its id, then taken down), with no
  // participant in it (anyone can write it): a count only.
  await page.goto('index.html?study=studies/gone/work-intake-planning.json');
  await expect(page.getByRole('heading', { level: 1, name: 'This study could not be opened' })).toBeVisible();
  const list = page.getByRole('region', { name: 'Answers saved in this browser' });
  await expect(list.getByText('1 other set of answers to this study are kept in this browser')).toBeVisible();
  await expectNoDownloadOfParticipantOne(page);
  // Another participant's link: their own answers only (none), and the count.
  await page.goto('index.html?study=studies/gone/work-intake-planning.json&annotator=p99999');
  await expect(list.getByText('1 other set of answers to this study are kept in this browser')).toBeVisible();
  await expectNoDownloadOfParticipantOne(page);

  // Participant 1's own link lists their saved answers, to download and send to the researcher.
  await page.goto(`index.html?study=studies/gone/work-intake-planning.json&annotator=${id}`);
  await expect(list.getByText(new RegExp(`^work-intake-planning — slot \\d+, ${id}, saved`))).toBeVisible();
  await expect(list.getByText(/other sets? of answers/)).toHaveCount(0);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    list.getByRole('button', { name: /^Download work-intake-planning/ }).click(),
  ]);
  const text = await fs.promises.readFile((await download.path())!, 'utf8');
  expect(text).toContain('Private note of participant one.');
  expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
});

/** Neither participant 1's id nor a download of their answers on the page. */
async function expectNoDownloadOfParticipantOne(page: Page) {
  await expect(page.locator('main')).not.toContainText(id);
  await expect(page.getByRole('button', { name: /^Download/ })).toHaveCount(0);
}

test('answers removed in one tab are not written back by a second tab of the same session', async ({ page, context, errors }) => {
  const link = `index.html?study=studies/pandalm.json&annotator=${id}`;
  // A second tab of the same session, left on its first trial (the page whose errors fail the
  // test).
  const second = page;
  await second.goto(link);
  await second.getByRole('button', { name: 'Start' }).click();
  await second.getByRole('button', { name: 'Begin' }).click();
  await expect(second.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  const first = await context.newPage();
  await first.goto(link);
  await finishStudy(first);
  const download = first.waitForEvent('download');
  await first.getByRole('button', { name: 'Download ratings (JSON)' }).click();
  await download;
  await first.getByRole('button', { name: 'Remove my answers from this browser' }).click();
  await first.getByRole('button', { name: 'Yes, remove my answers' }).click();
  await expect(first.getByText('Your answers have been removed from this browser.')).toBeVisible();
  const sessions = () =>
    first.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror/v1/')));
  expect(await sessions()).toEqual([]);
  // The second tab hears of it and says so; hiding or closing it (a save) writes nothing back.
  await expect(second.getByText('so this tab no longer saves them')).toBeVisible();
  await second.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await second.close({ runBeforeUnload: true });
  await first.close({ runBeforeUnload: true });
  const third = await context.newPage();
  await third.goto('index.html');
  await expect(third.getByRole('heading', { level: 1, name: 'Juror' })).toBeVisible();
  expect(await third.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror/v1/')))).toEqual([]);
  // The same link opened afresh starts a new session, which saves as usual.
  await third.goto(link);
  await third.getByRole('button', { name: 'Start' }).click();
  await expect
    .poll(() => third.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror/v1/')).length))
    .toBe(1);
  expect(errors).toEqual([]);
});
