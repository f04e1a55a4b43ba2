// Intent: a researcher analyses ratings files in the page and gets the very report that
// `juror analyze` writes for the same files, with the same defaults.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { test, expect, fixture, root } from './fixtures';

const juror = path.join(root, 'target/debug/juror');
const dir = fixture('analysis');

/** Saves the download a click on the button named `name` starts; returns its text. */
async function download(page: Page, name: string, testInfo: TestInfo): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name }).click(),
  ]);
  const saved = testInfo.outputPath(file.suggestedFilename());
  await file.saveAs(saved);
  return fs.readFileSync(saved, 'utf8');
}

/**
 * The fields that may legitimately differ between the two reports are the input names: the
 * page knows a file by its name only, the command line by the path it was given
 * (`inputs[].file`, `problems[].file`, `settings.adjudication`). The command line runs in the
 * fixtures' folder so both give bare names; reducing every name to its last path segment keeps
 * the comparison honest if it ever gets a path.
 */
function normalise(report: any): any {
  const base = (p: string) => path.basename(p);
  report.inputs = report.inputs.map((f: any) => ({ ...f, file: base(f.file) }));
  report.problems = report.problems.map((p: any) => ({ ...p, file: base(p.file) }));
  if (report.settings.adjudication) report.settings.adjudication = base(report.settings.adjudication);
  return report;
}

/**
 * Deep equality where numbers may differ in their last bits: the page runs the core compiled to
 * WebAssembly, whose `exp`, `ln` and friends come from Rust's own libm, not the system's, so a
 * p-value can differ by an ulp or two (seen: the binomial p of a preference pair). Everything
 * else, structure, strings, counts, must be identical. Returns the paths that differ.
 */
function differences(a: any, b: any, at = '$'): string[] {
  if (typeof a === 'number' && typeof b === 'number') {
    const close = a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
    return close ? [] : [`${at}: ${a} != ${b}`];
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return a === b ? [] : [`${at}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`];
  }
  if (Array.isArray(a) !== Array.isArray(b)) return [`${at}: array and object`];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) =>
    k in a && k in b ? differences(a[k], b[k], `${at}.${k}`) : [`${at}.${k}: only on one side`],
  );
}

function cli(args: string[]): string {
  return execFileSync(juror, ['analyze', ...args], { cwd: dir, encoding: 'utf8' });
}

test('the open page links to the analysis page', async ({ page }) => {
  await page.goto('index.html');
  await page.getByRole('link', { name: 'Analyse ratings files' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Analyse ratings' })).toBeVisible();
});

test('ratings of the financial study: the page report equals juror analyze', async ({ page, errors }, testInfo) => {
  const files = ['financial-slot1.json', 'financial-slot2.json', 'financial-slot3.json'];
  const study = path.join(root, 'assets/studies/financial-analysis.json');

  await page.goto('index.html?analyse');
  await expect(page.getByRole('heading', { level: 1, name: 'Analyse ratings' })).toBeVisible();
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page
    .getByLabel('Choose ratings files or CSVs')
    .setInputFiles(files.map((f) => path.join(dir, f)));
  await expect(page.getByRole('heading', { name: 'Dimension: quality' })).toBeVisible();
  await expect(page.getByRole('table', { name: /^Systems on quality/ })).toBeVisible();
  await expect(page.getByRole('table', { name: /^Agreement on quality/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /95% confidence interval per system on quality/ })).toBeVisible();
  await expect(page.getByText('No problems in the files.')).toBeVisible();

  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  const cliReport = JSON.parse(cli(['--study', study, ...files, '--format', 'json']));
  expect(pageReport.settings).toEqual({ ...cliReport.settings }); // defaults: flag SD 1.5, seed 0, 2000 resamples
  expect(normalise(pageReport)).toEqual(normalise(cliReport));

  // The cells to adjudicate, as `juror analyze --adjudication-sheet` writes them.
  expect(cliReport.dimensions[0].flags.length).toBeGreaterThan(0);
  const sheet = await download(page, 'Download adjudication sheet', testInfo);
  const sheetPath = testInfo.outputPath('cli-sheet.csv');
  cli(['--study', study, ...files, '--adjudication-sheet', sheetPath]);
  expect(sheet).toBe(fs.readFileSync(sheetPath, 'utf8'));

  // The merged data and the Markdown report are the command line's too.
  expect(await download(page, 'Download merged data (CSV)', testInfo)).toBe(
    cli(['--study', study, ...files, '--format', 'csv']),
  );
  expect(await download(page, 'Download report (Markdown)', testInfo)).toBe(
    cli(['--study', study, ...files, '--format', 'md']),
  );
  expect(errors).toEqual([]);
});

test('sealed pairwise ratings with their key: preferences equal juror analyze', async ({ page, errors }, testInfo) => {
  const files = ['pandalm-slot1.json', 'pandalm-slot2.json', 'pandalm-slot3.json'];
  await page.goto('index.html?analyse');
  await page.getByLabel('Choose the study file').setInputFiles(path.join(dir, 'pandalm-sealed-study.json'));
  await page.getByLabel('Choose the seal key').setInputFiles(path.join(dir, 'pandalm-key.json'));
  await page
    .getByLabel('Choose ratings files or CSVs')
    .setInputFiles(files.map((f) => path.join(dir, f)));
  await expect(page.getByRole('heading', { name: 'Pairwise preferences' })).toBeVisible();
  await expect(page.getByRole('table', { name: /^Bradley–Terry ranking/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download adjudication sheet' })).toHaveCount(0);

  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  const cliReport = JSON.parse(
    cli(['--study', 'pandalm-sealed-study.json', '--key', 'pandalm-key.json', ...files]),
  );
  expect(pageReport.preferences).not.toBeNull();
  expect(differences(normalise(pageReport), normalise(cliReport))).toEqual([]);
  expect(errors).toEqual([]);
});

test('a file that is not ratings is listed with where and what', async ({ page }) => {
  await page.goto('index.html?analyse');
  await page
    .getByLabel('Choose ratings files or CSVs')
    .setInputFiles([path.join(dir, 'financial-slot1.json'), path.join(dir, 'bad-rows.csv')]);
  const problems = page.getByRole('table', { name: 'Problems per file' });
  await expect(problems).toBeVisible();
  await expect(problems.getByRole('cell', { name: 'bad-rows.csv' }).first()).toBeVisible();
  // Exit status 1: some input had problems; the report covers the rest.
  const run = spawnSync(juror, ['analyze', 'financial-slot1.json', 'bad-rows.csv'], { cwd: dir, encoding: 'utf8' });
  expect(run.status).toBe(1);
  const cliReport = JSON.parse(run.stdout);
  expect(cliReport.problems.length).toBeGreaterThan(0);
  await expect(problems.locator('tbody tr')).toHaveCount(cliReport.problems.length);
});

test.describe('accessibility', () => {
  // axe-core is injected as a script of the test's own, which the app's CSP would refuse; the
  // other tests of this file run under the policy (a refused inline style would be a console
  // error, and they check there is none).
  test.use({ bypassCSP: true });

  test('the analysis page with a report passes an axe-core scan', async ({ page }) => {
    await page.goto('index.html?analyse');
    await page
      .getByLabel('Choose ratings files or CSVs')
      .setInputFiles(['financial-slot1.json', 'financial-slot2.json', 'bad-rows.csv'].map((f) => path.join(dir, f)));
    await expect(page.getByRole('heading', { name: 'Dimension: quality' })).toBeVisible();
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const serious = await page.evaluate(async () => {
      type Result = { violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] };
      const axe = (window as unknown as { axe: { run: (d: Document) => Promise<Result> } }).axe;
      const result = await axe.run(document);
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
    });
    expect(serious).toEqual([]);
  });
});
