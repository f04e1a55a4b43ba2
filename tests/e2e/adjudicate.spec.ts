// Intent: an expert adjudicates, in the Analyse page, the cells the annotators disagree on,
// downloads the adjudication file, and the report made with it (applied in the page, or the file
// dropped in with the ratings files) is the very report `juror analyze --adjudication` writes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, root } from './fixtures';
import { cli, differences, dir, download, downloadFile, normalise } from './analysis-helpers';

const files = ['financial-slot1.json', 'financial-slot2.json', 'financial-slot3.json'];
const study = path.join(root, 'assets/studies/financial-analysis.json');

type Flag = { dimension: string; item: string; system: string; ratings: { annotator: string; score: number }[] };

/** The flagged cells of a report, each with its dimension. */
function flagsOf(report: any): Flag[] {
  return report.dimensions.flatMap((d: any) => d.flags.map((f: any) => ({ dimension: d.dimension, ...f })));
}

/** The control for the score of a flagged cell, by its accessible name. */
function scoreControl(page: Page, f: Flag, role: 'combobox' | 'textbox'): Locator {
  const name = `Score for item ${f.item}, system ${f.system}, dimension ${f.dimension}`;
  return page.getByRole(role, { name, exact: true });
}

/** Drops files on the page's drop zone, as a file manager would. */
async function drop(page: Page, paths: string[]) {
  const contents = paths.map((p) => ({ name: path.basename(p), text: fs.readFileSync(p, 'utf8') }));
  const dataTransfer = await page.evaluateHandle((contents) => {
    const dt = new DataTransfer();
    for (const c of contents) dt.items.add(new File([c.text], c.name, { type: 'application/json' }));
    return dt;
  }, contents);
  await page.getByText(/^Drop ratings files/).locator('..').dispatchEvent('drop', { dataTransfer });
}

test('adjudicated in the page, the report equals juror analyze --adjudication', async ({ page, errors }, testInfo) => {
  const before = JSON.parse(cli(['--study', study, ...files]));
  const flags = flagsOf(before);
  expect(flags.length).toBeGreaterThan(2);
  // An expert's scores: every cell but the last, which stays to be adjudicated.
  const scores = flags.map((_, i) => (i === flags.length - 1 ? '' : i % 2 === 0 ? '5' : '4'));

  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await drop(page, files.map((f) => path.join(dir, f)));
  const form = page.getByRole('region', { name: 'Adjudicate the flagged cells' });
  await expect(form).toBeVisible();
  await expect(form.getByRole('table', { name: 'Flagged cells on quality' }).getByRole('row')).toHaveCount(flags.length + 1);
  // Each cell shows its raw ratings with their annotators.
  const first = form.getByRole('row', { name: new RegExp(`^${flags[0].item} `) }).first();
  await expect(first).toContainText(flags[0].ratings.map((r) => `${r.annotator}: ${r.score}`).join(', '));

  // The first score by keyboard alone (Tab into the control, arrows to choose), the rest by choice.
  await scoreControl(page, flags[1], 'combobox').focus();
  await page.keyboard.press('Shift+Tab');
  await expect(scoreControl(page, flags[0], 'combobox')).toBeFocused();
  for (let k = 0; k < Number(scores[0]); k++) await page.keyboard.press('ArrowDown');
  await expect(scoreControl(page, flags[0], 'combobox')).toHaveValue(scores[0]);
  for (let i = 1; i < flags.length; i++) {
    const control = scoreControl(page, flags[i], 'combobox');
    await expect(control.getByRole('option')).toHaveText([
      'Not adjudicated', '1 — Very Poor', '2 — Poor', '3 — Acceptable', '4 — Good', '5 — Excellent',
    ]);
    await control.selectOption(scores[i]);
  }
  const filled = scores.filter((s) => s !== '').length;
  const status = form.getByRole('status');
  await expect(status).toHaveText(
    `${filled} of ${flags.length} flagged cells have a score. The report below does not use these scores yet: apply them to update it.`,
  );

  // The adjudication file: the sheet's columns, with the scores.
  const file = await downloadFile(page, 'Download adjudication file', testInfo);
  const lines = file.text.trimEnd().split('\n');
  expect(lines[0]).toBe('item_id,system_id,dimension,score,n,mean,sd,ratings');
  expect(lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual(
    flags.map((f, i) => `${f.item},${f.system},${f.dimension},${scores[i]}`),
  );

  // Applied in the page: the report is recomputed with it, and the scores stay in the form.
  await page.getByRole('button', { name: 'Apply adjudication to the report' }).click();
  await expect(status).toHaveText(`${filled} of ${flags.length} flagged cells have a score. The report below uses these scores.`);
  await expect(page.getByText(`Adjudication ${path.basename(file.path)}: ${filled} of ${filled} score(s) applied; 1 cell(s) left empty.`)).toBeVisible();
  for (let i = 0; i < flags.length; i++) await expect(scoreControl(page, flags[i], 'combobox')).toHaveValue(scores[i]);
  const applied = JSON.parse(await download(page, 'Download report (JSON)', testInfo));

  const after = JSON.parse(cli(['--study', study, ...files, '--adjudication', file.path]));
  expect(after.adjudication).toEqual({ file: path.basename(file.path), cells: filled, applied: filled, not_flagged: 0, unfilled: 1 });
  expect(after.problems).toEqual([]);
  expect(differences(normalise(applied), normalise(after))).toEqual([]);
  // The adjudication changed the comparisons (and the summaries), not agreement.
  expect(after.dimensions[0].comparisons[0].mean_diff).not.toBe(before.dimensions[0].comparisons[0].mean_diff);
  expect(after.dimensions[0].agreement).toEqual(before.dimensions[0].agreement);

  // A fresh page: the downloaded file dropped in with the ratings files gives the same report.
  await page.goto('analyse.html');
  await expect(page.getByRole('heading', { level: 1, name: 'Analyse ratings' })).toBeVisible();
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page.getByLabel('Choose an adjudication CSV').setInputFiles(file.path);
  await drop(page, files.map((f) => path.join(dir, f)));
  await expect(form.getByRole('status')).toHaveText(/The report below uses these scores\.$/);
  for (let i = 0; i < flags.length; i++) await expect(scoreControl(page, flags[i], 'combobox')).toHaveValue(scores[i]);
  const dropped = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  expect(differences(normalise(dropped), normalise(after))).toEqual([]);
  // The Markdown report is the command line's too.
  expect(await download(page, 'Download report (Markdown)', testInfo)).toBe(
    cli(['--study', study, ...files, '--adjudication', file.path, '--format', 'md']),
  );
  expect(errors).toEqual([]);
});

test('without a study, scores are numbers checked as typed', async ({ page, errors }, testInfo) => {
  const before = JSON.parse(cli(files));
  const flags = flagsOf(before);
  await page.goto('analyse.html');
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(files.map((f) => path.join(dir, f)));
  const control = scoreControl(page, flags[0], 'textbox');
  await control.fill('high');
  await expect(control).toHaveAttribute('aria-invalid', 'true');
  await expect(control).toHaveAccessibleDescription('"high" is not a number');
  await page.getByRole('button', { name: 'Download adjudication file' }).click();
  await expect(page.getByRole('alert')).toContainText(
    `Score for item ${flags[0].item}, system ${flags[0].system}, dimension ${flags[0].dimension}: "high" is not a number`,
  );
  await control.fill('2.5');
  await expect(control).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toHaveCount(0);
  const file = await downloadFile(page, 'Download adjudication file', testInfo);
  expect(file.text.split('\n')[1]).toMatch(new RegExp(`^${flags[0].item},${flags[0].system},${flags[0].dimension},2\\.5,`));
  await page.getByRole('button', { name: 'Apply adjudication to the report' }).click();
  // The form's own status (the page has another: "Analysing N files…").
  const form = page.getByRole('region', { name: 'Adjudicate the flagged cells' });
  await expect(form.getByRole('status')).toHaveText(/The report below uses these scores\.$/);
  const applied = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  const after = JSON.parse(cli([...files, '--adjudication', file.path]));
  expect(after.adjudication.applied).toBe(1);
  expect(differences(normalise(applied), normalise(after))).toEqual([]);
  expect(errors).toEqual([]);
});
