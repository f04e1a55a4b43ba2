// Intent: a researcher checks, in the Analyse page, what a reviewer will ask before trusting the
// numbers (position bias, time per trial, straight-lining, attention checks, repeated ratings)
// and how ratings change over rounds (slopes, the mixed model, a chart), and sees the very
// numbers `juror analyze` writes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, expect, root } from './fixtures';
import { cli, differences, dir, download, normalise } from './analysis-helpers';

test('diagnostics of a reasoning-trajectories study equal juror analyze', async ({ page, errors }, testInfo) => {
  const files = ['trajectories-slot1.json', 'trajectories-slot2.json', 'trajectories-slot3.json'];
  const study = path.join(root, 'assets/studies/reasoning-trajectories.json');
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(files.map((f) => path.join(dir, f)));

  const diagnostics = page.getByRole('region', { name: 'Diagnostics' });
  await expect(diagnostics).toBeVisible();
  await expect(diagnostics).toContainText('nothing here was excluded from the analysis');
  const annotators = diagnostics.getByRole('table', { name: /^Annotators: time/ });
  await expect(annotators.getByRole('row', { name: /^slot3 / })).toContainText('failed 2 of 2 attention checks');
  await expect(annotators.getByRole('row', { name: /^slot3 / })).toContainText(
    'gave one score to every rating of "correctness" (3, 8 ratings), "coherence" (3, 8 ratings) and "efficiency" (3, 8 ratings)',
  );
  await expect(annotators.getByRole('row', { name: /^slot2 / })).toContainText('median 1.4 s per trial');
  await expect(annotators.getByRole('row', { name: /^slot1 / })).toContainText('2 of 2');
  // Two annotators raise warnings, in the last column; slot1 none.
  await expect(annotators.getByRole('row', { name: /^slot1 / }).getByRole('cell').last()).toHaveText('');
  await expect(diagnostics.getByRole('table', { name: /^Mean raw score by the position/ })).toBeVisible();

  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  const cliReport = JSON.parse(cli(['--study', study, ...files]));
  expect(cliReport.diagnostics.annotators).toHaveLength(3);
  expect(differences(normalise(pageReport), normalise(cliReport))).toEqual([]);
  expect(errors).toEqual([]);
});

test('ratings over rounds: slopes, mixed model and chart equal juror analyze', async ({ page, errors }, testInfo) => {
  // The HARE study's design: 20 annotators rate 4 systems in 10 rounds (the mixed-model reference data).
  const reference = JSON.parse(
    fs.readFileSync(path.join(root, 'crates/juror-core/tests/reference/mixed/reference.json'), 'utf8'),
  );
  const rows = reference.cases[0].rows as [string, string, number, number][];
  const csv =
    'item_id,system_id,annotator_id,dimension,score,round\n' +
    rows.map(([a, s, r, y]) => `round-${r},${s},${a},quality,${y},${r}`).join('\n') +
    '\n';
  const file = testInfo.outputPath('rounds.csv');
  fs.writeFileSync(file, csv);

  await page.goto('analyse.html');
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(file);
  await expect(page.getByRole('heading', { name: 'Over rounds', exact: true })).toBeVisible();

  const cliReport = JSON.parse(cli([file]));
  const rounds = cliReport.dimensions[0].rounds;
  const hare = rounds.trends.find((t: any) => t.system === 'hare');
  const chart = page.getByRole('img', { name: /^Mean rating of quality per round/ });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleName(new RegExp(`hare: slope ${hare.slope.toFixed(3)} per round \\(p < 0\\.001\\)`));
  await expect(chart.locator('polyline')).toHaveCount(4);
  const slopes = page.getByRole('table', { name: /^Slope of quality per round/ });
  await expect(slopes.getByRole('row', { name: /^hare / })).toContainText(hare.slope.toFixed(3));
  const effects = page.getByRole('table', { name: 'Fixed effects of the mixed model on quality' });
  await expect(effects.locator('tbody tr')).toHaveCount(rounds.mixed_model.fixed_effects.length);
  const interaction = rounds.mixed_model.fixed_effects.find((f: any) => f.name === 'system[T.rag]:round');
  await expect(effects.getByRole('row', { name: /^system\[T\.rag\]:round / })).toContainText(
    interaction.estimate.toFixed(4),
  );

  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  expect(differences(normalise(pageReport), normalise(cliReport))).toEqual([]);
  expect(errors).toEqual([]);
});
