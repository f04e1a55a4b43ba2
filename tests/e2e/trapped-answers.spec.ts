// Intent: the study file an annotator was working on can no longer be opened (moved, renamed,
// made invalid by an update). Their saved answers are not trapped: the problems page lists that
// study's for download, and the researcher turns the download back into a ratings file.
import { test, expect, root } from './fixtures';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { juror } from './analysis-helpers';
import { openStudy } from './session';

test('answers of a study that moved are listed on the problems page, downloaded and recovered', async ({ page }, testInfo) => {
  await openStudy(page, 'work-intake.json', 3);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  await page.getByRole('radiogroup', { name: 'Relevance — System A' }).getByRole('radio').nth(3).check();

  // The study is no longer where the link says (published under its id, then moved): the link
  // fails, and its page lists the study's saved answers (those of its id, no other study's).
  await page.goto('index.html?study=studies/work-intake-planning.json&slot=3');
  await expect(page.getByRole('heading', { level: 1, name: 'This study could not be opened' })).toBeVisible();
  const list = page.getByRole('region', { name: 'Answers saved in this browser' });
  await expect(list.getByText(/^work-intake-planning — slot 3/)).toBeVisible();
  await expect(list.getByText('1 trial answered')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    list.getByRole('button', { name: /^Download work-intake-planning — slot 3/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^juror-saved-.*-slot-3\.json$/);
  const saved = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(saved);
  await expect(list.getByRole('status').filter({ hasText: 'Downloaded' })).toBeVisible();

  // The researcher, who has the study file, recovers a ratings file with the answer in it.
  const out = testInfo.outputPath('recovered.json');
  execFileSync(juror, ['recover', saved, '--study', path.join(root, 'assets/studies/work-intake.json'), '--out', out]);
  const ratings = JSON.parse(fs.readFileSync(out, 'utf8'));
  expect(ratings.format).toBe('juror.ratings/1');
  expect(ratings.annotator.slot).toBe(3);
  const given = ratings.trials[0].outputs.filter((o: { ratings: Record<string, number> }) => Object.keys(o.ratings).length);
  expect(given).toHaveLength(1);
  expect(Object.values(given[0].ratings)).toEqual([4]);
});

test('a study made invalid by an update lists its answers, and set-aside copies can be removed once downloaded', async ({ page }) => {
  await openStudy(page, 'work-intake.json', 2);
  await page.getByRole('button', { name: 'Start' }).click();
  // The session's key, once the session (loaded after the welcome page) has saved.
  const sessionKey = () => page.evaluate(() => Object.keys(localStorage).find((k) => k.startsWith('juror/v1/') && k.endsWith('/2')));
  await expect.poll(sessionKey).toBeDefined();
  const key = (await sessionKey())!;
  // A damaged copy of the same study file was set aside earlier (it says no study itself).
  await page.evaluate((k) => localStorage.setItem(`juror-quarantine/1795300000000/${k}`, '{damaged'), key);
  // The study file is replaced by one this version cannot open; it still names its id.
  await page.route('**/studies/work-intake.json', (route) =>
    route.fulfill({ body: JSON.stringify({ format: 'juror.study/9', id: 'work-intake-planning' }), contentType: 'application/json' }),
  );
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /^This study has \d+ problems?$/ })).toBeVisible();
  const list = page.getByRole('region', { name: 'Answers saved in this browser' });
  await expect(list.getByText(/^work-intake-planning — slot 2/)).toBeVisible();
  await expect(list.getByText('Unreadable answers (set aside) — slot 2')).toBeVisible();
  await expect(list.getByRole('button', { name: 'Remove from this browser' })).toHaveCount(0);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    list.getByRole('button', { name: /^Download Unreadable answers/ }).click(),
  ]);
  expect(await fs.promises.readFile((await download.path())!, 'utf8')).toBe('{damaged');
  await list.getByRole('button', { name: 'Remove from this browser' }).click();
  await expect(list.getByText('Unreadable answers (set aside) — slot 2')).toHaveCount(0);
  await expect(list.getByText(/^work-intake-planning — slot 2/)).toBeVisible();
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror-quarantine')))).toEqual([]);
});
