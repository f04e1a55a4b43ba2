// Intent: a researcher sees every answer the annotators gave, not only the ratings: the HARE study's
// "useful" per output, the intake and exit surveys (the exit ranking of systems turned back
// from each annotator's letters), notes and reasons, in the page as with `juror analyze`, and
// downloads them as one tidy answers CSV.
import * as path from 'node:path';
import { test, expect, root } from './fixtures';
import { cli, differences, dir, download, normalise } from './analysis-helpers';

test('the HARE study: output questions, surveys and texts are reported and exported', async ({ page, errors }, testInfo) => {
  const study = path.join(root, 'assets/studies/hare-personalization.json');
  const files = ['hare-slot1.json', 'hare-slot2.json', 'hare-slot3.json'];
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(files.map((f) => path.join(dir, f)));

  const useful = page.getByRole('table', { name: 'Answers to useful' });
  await expect(useful).toBeVisible();
  await expect(useful.getByRole('row', { name: /^hare Useful 30 30 / })).toBeVisible();
  await expect(
    page.getByText(/Share of "Useful" across systems, paired on 30 \(annotator, item\) cell\(s\): Cochran's Q/),
  ).toBeVisible();
  const ranking = page.getByRole('table', { name: 'Rankings in system_ranking' });
  await expect(ranking.getByRole('row', { name: /^hare 3 1\.00/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Answers to role' })).toBeVisible();
  await expect(page.getByText('3 note(s) and 27 reason(s) for preferences were written')).toBeVisible();

  const csv = await download(page, 'Download answers (CSV)', testInfo);
  expect(csv).toBe(cli(['--study', study, ...files, '--format', 'answers']));
  expect(csv.split('\n')[0]).toBe('annotator_id,phase,question_id,item_id,system_id,value,rank,source_file,source_at');
  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  const cliReport = JSON.parse(cli(['--study', study, ...files]));
  expect(differences(normalise(pageReport), normalise(cliReport))).toEqual([]);

  // The report broken down by an intake answer (exploratory), as `--by-intake role`.
  await page.getByText('Analysis plan', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Per answer to an intake question' }).selectOption('role');
  await expect(
    page.getByRole('heading', { name: /^Annotators who answered "Researcher or academic" to role/ }).first(),
  ).toBeVisible();
  const byRole = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  const cliByRole = JSON.parse(cli(['--study', study, ...files, '--by-intake', 'role']));
  expect(byRole.dimensions[0].intake_groups).toHaveLength(2);
  expect(differences(normalise(byRole), normalise(cliByRole))).toEqual([]);
  expect(errors).toEqual([]);
});
