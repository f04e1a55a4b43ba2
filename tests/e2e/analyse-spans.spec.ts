// Intent: a researcher drops the error spans and the ESA scores of an ESA study on the Analyse
// page and reads, as `juror analyze` computes them, the MQM score per system and the span
// agreement (character-level F1 and Krippendorff's alpha); with the study given, each output's
// text once per annotator with their spans over it, the least agreed output first, each span's
// severity said in words, so that disagreements can be read.
//
// The fixtures (among the analysis fixtures): `summeval-esa-spans.csv`, the spans three
// annotators marked on the first three items of the ESA example (`assets/studies/summeval-esa.json`;
// lengths in code points of its texts; M22 marked error-free by all; one error of the whole
// output on M20), and `summeval-esa-scores.csv`, their ESA scores.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, root } from './fixtures';
import { dir, juror } from './analysis-helpers';

const study = path.join(root, 'assets/studies/summeval-esa.json');
const spans = path.join(dir, 'summeval-esa-spans.csv');
const scores = path.join(dir, 'summeval-esa-scores.csv');

/** `juror analyze --format json` on the same files: the report the page must show. */
function cliReport(withStudy: boolean): any {
  const args = ['analyze', ...(withStudy ? ['--study', study] : []), spans, scores, '--format', 'json'];
  return JSON.parse(execFileSync(juror, args, { encoding: 'utf8' }));
}

async function open(page: Page, withStudy: boolean): Promise<void> {
  await page.goto('analyse.html');
  if (withStudy) await page.getByLabel('Choose the study file').setInputFiles(study);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles([spans, scores]);
  await expect(page.getByRole('heading', { name: 'Analysis report', exact: true })).toBeVisible();
}

test('the MQM table and span agreement are the command line numbers, and each output shows who marked what', async ({
  page,
  errors,
}) => {
  await open(page, true);
  const report = cliReport(true);
  const section = page.getByRole('region', { name: 'Error spans' });
  await expect(section.getByRole('heading', { name: 'Error spans', exact: true })).toBeVisible();

  // The MQM table: a row per system with its score (two decimals) and items, as the CLI has it.
  const table = section.getByRole('table', { name: 'MQM score and errors per system' });
  await expect(table).toBeVisible();
  for (const s of report.spans.systems) {
    const row = table.getByRole('row', { name: new RegExp(`^${s.system} `) });
    await expect(row.getByRole('cell').nth(1)).toHaveText(s.mqm.mean.toFixed(2));
    await expect(row.getByRole('cell').first()).toHaveText(String(s.mqm.n));
  }
  // The ESA score is an ordinary dimension beside the MQM one.
  await expect(page.getByRole('heading', { name: /Overall quality \(esa\)/ }).first()).toBeVisible();
  // Agreement, in words, with what it rests on.
  await expect(section.getByText(/^Span agreement: character-level F1/)).toContainText(
    `F1 ${report.spans.f1.value.toFixed(3)} over ${report.spans.f1.pairs} pair(s)`,
  );
  await expect(section.getByText(/^Span agreement/)).toContainText(
    `α (nominal, characters labelled none, minor, major or critical) ${report.spans.alpha.value.toFixed(3)}`,
  );

  // Who marked what: the least agreed output first, a line per annotator.
  await expect(section.getByRole('heading', { name: 'Who marked what' })).toBeVisible();
  const lowest = report.spans.outputs_by_f1[0];
  const first = section.getByRole('region').first();
  await expect(first.getByRole('heading')).toHaveText(
    `Item ${lowest.item}, system ${lowest.system}: F1 ${lowest.f1.toFixed(2)} (${lowest.pairs} pair(s))`,
  );
  const lines = first.getByRole('listitem');
  await expect(lines).toHaveCount(lowest.annotators);
  await expect(lines.filter({ hasText: /^ann1: / }).locator('mark').first()).toContainText('[major]');
  // The error of the whole output is said in words on the line of the annotator who marked it.
  await expect(lines.filter({ hasText: /^ann3: / })).toContainText('of the whole output: [major]');
  // An output found error-free by everyone: no span, said in words.
  const clean = section.getByRole('region', { name: /system M22: F1 – \(0 pair\(s\)\)/ }).first();
  await expect(clean.getByRole('listitem').first()).toContainText('No errors.');
  await expect(clean.locator('mark')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('without the study the spans tables are shown and the page asks for the study to show the texts', async ({
  page,
  errors,
}) => {
  await open(page, false);
  const section = page.getByRole('region', { name: 'Error spans' });
  await expect(section.getByRole('table', { name: 'MQM score and errors per system' })).toBeVisible();
  await expect(section.getByText(/Give the study \(step 1\) to read each output's text/)).toBeVisible();
  await expect(section.getByRole('heading', { name: 'Who marked what' })).toHaveCount(0);
  expect(errors).toEqual([]);
});
