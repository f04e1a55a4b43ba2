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

/** The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

/** The adjudication sheet's columns. */
const SHEET = 'item_id,system_id,dimension,score,expert,n,mean,sd,ratings,prompt,context,media,output';

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
  // Between two cells' scores sits the first cell's "Prompt and output" button.
  await scoreControl(page, flags[1], 'combobox').focus();
  await page.keyboard.press('Shift+Tab');
  await expect(
    form.getByRole('row', { name: new RegExp(`^${flags[0].item} ${flags[0].system} `) }).getByRole('button', { name: 'Prompt and output' }),
  ).toBeFocused();
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

  // The adjudication file: the sheet's columns, with the scores (one unnamed expert's).
  const file = await downloadFile(page, 'Download adjudication file', testInfo);
  const records = csvRecords(file.text);
  expect(records[0].join(',')).toBe(SHEET);
  expect(records.slice(1).map((r) => r.slice(0, 5).join(','))).toEqual(
    flags.map((f, i) => `${f.item},${f.system},${f.dimension},${scores[i]},`),
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
  // Without the study, the form says how to see what was rated.
  await expect(page.getByText(/^Give the study \(step 1\) to see each item's prompt/)).toBeVisible();
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

test('the form shows each flagged cell\'s prompt, context and the output rated, as the sheet does', async ({ page, errors }, testInfo) => {
  const flags = flagsOf(JSON.parse(cli(['--study', study, ...files])));
  const items = JSON.parse(fs.readFileSync(study, 'utf8')).items;
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(files.map((f) => path.join(dir, f)));
  const form = page.getByRole('region', { name: 'Adjudicate the flagged cells' });
  for (const f of flags.slice(0, 2)) {
    const item = items.find((i: any) => i.id === f.item);
    const row = form.getByRole('row', { name: new RegExp(`^${f.item} ${f.system} `) });
    const button = row.getByRole('button', { name: 'Prompt and output' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(row).toContainText(item.prompt.split('\n')[0].trim());
    await expect(row).toContainText(item.context.split('\n')[0].trim());
    await expect(row).toContainText(`Output of ${f.system}`);
    await expect(row).toContainText(item.outputs[f.system].split('\n')[0].trim());
  }
  // The sheet the expert fills holds them too, beside each cell.
  const sheet = csvRecords(await download(page, 'Download adjudication sheet', testInfo));
  expect(sheet[0].join(',')).toBe(SHEET);
  for (const [k, f] of flags.entries()) {
    const item = items.find((i: any) => i.id === f.item);
    expect(sheet[k + 1].slice(0, 2)).toEqual([f.item, f.system]);
    expect(sheet[k + 1].slice(9)).toEqual([item.prompt, item.context ?? '', '', item.outputs[f.system]]);
  }
  expect(errors).toEqual([]);
});

test('flagged cells not yet adjudicated can be set aside, as juror analyze --exclude-unadjudicated does', async ({ page, errors }, testInfo) => {
  const kept = JSON.parse(cli(['--study', study, ...files]));
  const aside = JSON.parse(cli(['--study', study, ...files, '--exclude-unadjudicated']));
  // A system whose mean changes when its flagged cells are set aside (as the report's table
  // writes it, to two decimals).
  const changed = kept.dimensions[0].systems.find(
    (s: any, k: number) => s.mean.toFixed(2) !== aside.dimensions[0].systems[k].mean.toFixed(2),
  );
  expect(changed).toBeTruthy();
  const after = aside.dimensions[0].systems.find((s: any) => s.system === changed.system);
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(files.map((f) => path.join(dir, f)));
  const systems = page.getByRole('table', { name: /^Systems on Overall quality/ });
  const row = systems.getByRole('row', { name: new RegExp(`^${changed.system} `) });
  await expect(row).toContainText(`${changed.mean.toFixed(2)} ±`);
  const methods = page.getByRole('region', { name: 'Methods' });
  await expect(methods).not.toContainText('were set aside');

  const toggle = page.getByRole('checkbox', { name: 'Set aside flagged cells not yet adjudicated' });
  await toggle.check();
  await expect(row).toContainText(`${after.mean.toFixed(2)} ±`);
  await expect(methods).toContainText('flagged cells without an adjudicated score were set aside');
  const flagged = aside.dimensions[0].flags.length;
  await expect(page.getByText(`${flagged} flagged cell(s) not yet adjudicated are set aside`)).toBeVisible();
  const report = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  expect(report.settings.exclude_unadjudicated).toBe(true);
  expect(differences(normalise(report), normalise(aside))).toEqual([]);
  expect(await download(page, 'Download report (Markdown)', testInfo)).toBe(
    cli(['--study', study, ...files, '--exclude-unadjudicated', '--format', 'md']),
  );

  await toggle.uncheck();
  await expect(row).toContainText(`${changed.mean.toFixed(2)} ±`);
  await expect(methods).not.toContainText('were set aside');
  expect(errors).toEqual([]);
});


test('an item\'s image shows in the form once the expert chooses the study\'s media files, which stay in the browser', async ({ page, errors }, testInfo) => {
  const trajectories = path.join(root, 'assets/studies/reasoning-trajectories.json');
  const doc = JSON.parse(fs.readFileSync(trajectories, 'utf8'));
  const item = doc.items.find((i: any) => i.id === 'chart-sales');
  // Three annotators far apart on one cell: the cell is flagged.
  const header = 'item_id,system_id,annotator_id,dimension,score';
  const rows = [1, 5, 1].map((score, k) => `chart-sales,rft-base,a${k + 1},coherence,${score}`);
  const csv = testInfo.outputPath('disagree.csv');
  fs.writeFileSync(csv, [header, ...rows, ''].join('\n'));
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(trajectories);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(csv);
  const form = page.getByRole('region', { name: 'Adjudicate the flagged cells' });
  const row = form.getByRole('row', { name: /^chart-sales rft-base / });
  await row.getByRole('button', { name: 'Prompt and output' }).click();
  // Before the files are chosen: the text alternative and the path, no image.
  await expect(row).toContainText(item.media.alt);
  await expect(row).toContainText(item.media.src);
  await expect(row.getByRole('img')).toHaveCount(0);
  await form.getByLabel("Choose the items' images and videos").setInputFiles(
    ['bar-chart-sales.svg', 'clock.svg'].map((f) => path.join(root, 'assets/studies/media', f)));
  await expect(form).toContainText('2 file(s) chosen');
  const image = row.getByRole('img', { name: item.media.alt });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', /^blob:/);
  expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // Nothing was fetched for it: the file came from the expert's disk.
  expect(requests.filter((u) => u.includes('bar-chart-sales'))).toEqual([]);
  expect(errors).toEqual([]);
});

test("the switch starts checked when the study's plan pre-registers setting those cells aside", async ({ page, errors }, testInfo) => {
  const trajectories = path.join(root, 'assets/studies/reasoning-trajectories.json');
  const slots = ['trajectories-slot1.json', 'trajectories-slot2.json', 'trajectories-slot3.json'];
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(trajectories);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(slots.map((f) => path.join(dir, f)));
  const toggle = page.getByRole('checkbox', { name: 'Set aside flagged cells not yet adjudicated' });
  await expect(toggle).toBeChecked();
  const methods = page.getByRole('region', { name: 'Methods' });
  await expect(methods).toContainText('as the analysis plan pre-registers, flagged cells without an adjudicated score were set aside');
  const report = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  expect(report.settings.exclude_unadjudicated).toBe(true);
  expect(differences(normalise(report), normalise(JSON.parse(cli(['--study', trajectories, ...slots]))))).toEqual([]);

  await toggle.uncheck();
  await expect(methods).toContainText('although the analysis plan pre-registers setting them aside');
  expect(errors).toEqual([]);
});
