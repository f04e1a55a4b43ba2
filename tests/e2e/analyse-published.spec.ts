// Intent: a researcher who drops the ratings files of a published study on the Analyse page
// before giving its key is told at once, in one sentence, to give the key and the published
// study (no report of token "systems", no long freeze); giving the study and the key then
// analyses the same files, the systems named, without dropping them again. A study and key
// swapped are refused where they are chosen, each said to be the other; a status beside the
// files says when the report is ready further down.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test, expect, root } from './fixtures';
import { juror } from './analysis-helpers';
import { completeStudy } from './session';

test('ratings of a published study: refused without the key, analysed once the study and key are given', async ({ page, errors }, testInfo) => {
  test.setTimeout(120_000);
  // Published the README's way, into a folder the e2e server serves (the example's description
  // names its two systems, which sealing cannot hide: allowed here).
  const site = path.join(root, 'dist/e2e-published/analyse-key');
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'juror-keys-analyse-'));
  fs.rmSync(site, { recursive: true, force: true });
  execFileSync(juror, ['publish', path.join(root, 'assets/studies/pandalm.json'), '--site', site, '--keys', keys, '--allow-named'], {
    encoding: 'utf8',
  });
  const studyPath = path.join(site, 'studies/pandalm.json');
  // Served compiled, as a site's build compiles it; the researcher gives the file served.
  execFileSync(juror, ['compile', '--in-place', studyPath], { encoding: 'utf8' });
  const keyPath = path.join(keys, 'pandalm.key.json');

  // An annotator completes slot 1 and downloads the ratings file.
  await page.goto('index.html?study=e2e-published/analyse-key/studies/pandalm.json&slot=1');
  expect(await completeStudy(page)).toBeGreaterThan(0);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)', exact: true }).click(),
  ]);
  const ratingsPath = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(ratingsPath);

  // The study and the key come first on the page.
  await page.goto('analyse.html');
  const studyFirst = page.getByRole('heading', { name: '1. The study and its key' });
  await expect(studyFirst).toBeVisible();
  const ratingsNext = page.getByRole('heading', { name: '2. Ratings files' });
  const [a, b] = [await studyFirst.boundingBox(), await ratingsNext.boundingBox()];
  expect(a!.y).toBeLessThan(b!.y);

  // The ratings alone: one sentence says what to give, quickly, and no report is made.
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(ratingsPath);
  const refusal = page.getByRole('alert').filter({ hasText: 'Nothing can be analysed yet' });
  await expect(refusal).toBeVisible({ timeout: 5_000 });
  await expect(refusal.getByRole('listitem')).toHaveCount(1);
  await expect(refusal).toContainText('these ratings are of the published study "pandalm-bloom-llama"');
  await expect(refusal).toContainText('give the key that `juror publish` wrote');
  await expect(page.getByRole('heading', { name: 'Analysis report', exact: true })).toHaveCount(0);
  await expect(page.getByText(/s-[0-9a-f]{12}/)).toHaveCount(0);

  // Beside the files, the status says why, with a link down to the reasons.
  const status = page.locator('.report-status');
  await expect(status).toContainText('Nothing can be analysed yet (1 reason(s)).');
  await expect(status.getByRole('link', { name: 'See why' })).toHaveAttribute('href', '#blocked');

  // The study and the key swapped: each is refused where it is chosen, said to be the other.
  await page.getByLabel('Choose the study file').setInputFiles(keyPath);
  await expect(page.getByRole('alert').filter({ hasText: 'Not taken: pandalm.key.json: this is a key (juror.key/1), not a study: the study and the key seem swapped' })).toBeVisible();
  await page.getByLabel('Choose the key').setInputFiles(studyPath);
  await expect(page.getByRole('alert').filter({ hasText: 'Not taken: pandalm.json: this is a study (compiled: juror.compiled/3), not a key: the study and the key seem swapped' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Remove pandalm/ })).toHaveCount(0);

  // The published study alone is not enough; with its key, the same files are analysed.
  await page.getByLabel('Choose the study file').setInputFiles(studyPath);
  await expect(refusal).toContainText('published study');
  await page.getByLabel('Choose the key').setInputFiles(keyPath);
  await expect(page.getByRole('heading', { name: 'Analysis report', exact: true })).toBeVisible();
  await expect(refusal).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'Not taken' })).toHaveCount(0);
  await expect(status.getByRole('link', { name: 'Go to the report' })).toHaveAttribute('href', '#report');
  const ranking = page.getByRole('table', { name: /^Bradley–Terry ranking/ });
  await expect(ranking).toContainText('bloom-7b');
  await expect(ranking).toContainText('llama-7b');
  await expect(page.getByText(/s-[0-9a-f]{12}/)).toHaveCount(0);
  expect(errors).toEqual([]);
});
