// Intent: a researcher gives the Analyse page the people's ratings and an automatic judge's
// verdicts, in a step of their own, and sees the judge's section (alternative annotator test,
// agreement, corrected estimates, biases) with the numbers `juror analyze --judges` prints, a
// plot per dimension of the judge against the humans' mean, and the people's report unchanged.
//
// The people: the HARE study's tidy ratings (12 annotators, every output) without items r09
// and r10, so the judge, which scores every output, corrects the humans' means with outputs
// they did not rate. The judge: `hare-judge-verdicts.csv` among the analysis fixtures, made
// once from the ratings: on each (item, system, dimension) in order of first appearance
// (k = 0, 1, …), the humans' mean rounded half up, plus one where k mod 7 = 3, minus one
// where k mod 9 = 5 (else), kept within 1–5, as run 1; the first 16 again as run 2, one point
// away where k mod 4 = 0.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { test, expect, root } from './fixtures';
import { differences, dir, download, juror, normalise } from './analysis-helpers';

const study = path.join(root, 'assets/studies/hare-personalization.json');
const judgeFile = path.join(dir, 'hare-judge-verdicts.csv');
const judge = 'judge-llm';

/**
 * The people's ratings of items r01 to r08, written for this test beside a copy of the judge's
 * file, so that the command line, run there, knows both files by the names the page knows them
 * by; the ratings' path.
 */
function humans(testInfo: TestInfo): string {
  const lines = fs.readFileSync(path.join(dir, 'hare-ratings.csv'), 'utf8').trimEnd().split('\n');
  const kept = lines.filter((l, i) => i === 0 || !/^r(09|10),/.test(l));
  const file = testInfo.outputPath('hare-humans.csv');
  fs.writeFileSync(file, `${kept.join('\n')}\n`);
  fs.copyFileSync(judgeFile, testInfo.outputPath(path.basename(judgeFile)));
  return file;
}

/** `juror analyze ARGS` beside the test's files; its standard output. */
function cli(testInfo: TestInfo, args: string[]): string {
  return execFileSync(juror, ['analyze', ...args], { cwd: testInfo.outputPath(), encoding: 'utf8' });
}

/** The report's JSON without the judges' section: the people's part. */
function peoplesPart(report: any): any {
  const { judges: _judges, ...rest } = normalise(report);
  return rest;
}

/** The rows of every pipe table in `markdown`, header row first, cells trimmed. */
function markdownTables(markdown: string): string[][][] {
  const tables: string[][][] = [];
  let current: string[][] | null = null;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      current = null;
      continue;
    }
    if (/^\|(-+:?\|)+$/.test(line)) continue;
    if (!current) tables.push((current = []));
    current.push(line.slice(2, -2).split(' | ').map((c) => c.trim()));
  }
  return tables;
}

/** The rows of every table under `region`, header row first, each cell's text. */
async function pageTables(region: Locator): Promise<string[][][]> {
  return region
    .locator('table')
    .evaluateAll((tables) =>
      tables.map((t) =>
        [...(t as HTMLTableElement).rows].map((r) => [...r.cells].map((c) => (c.textContent ?? '').trim())),
      ),
    );
}

/** Opens the page and gives it the study and the people's ratings. */
async function withHumans(page: Page, testInfo: TestInfo): Promise<string> {
  const file = humans(testInfo);
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(file);
  await expect(page.getByRole('heading', { name: 'Analysis report', exact: true })).toBeVisible();
  return file;
}

test("a judge's verdicts get a section of their own with the command line's numbers", async ({ page, errors }, testInfo) => {
  const file = await withHumans(page, testInfo);
  // The judges' step says what a judge file is before one is chosen.
  await expect(page.getByRole('heading', { name: "3. Judges' verdicts (optional)" })).toBeVisible();
  await expect(page.getByText(/never enter the human statistics/)).toBeVisible();
  await expect(page.getByText(/No judge's verdicts chosen/)).toContainText('juror trials');
  await expect(page.getByText(/No judge's verdicts chosen/)).toContainText('docs/judges.md');
  const withoutJudge = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  expect(withoutJudge.judges ?? []).toEqual([]); // left out of the JSON when empty

  await page.getByLabel("Choose judges' verdicts").setInputFiles(judgeFile);
  await expect(page.getByRole('list', { name: "Judges' files chosen" })).toContainText('hare-judge-verdicts.csv');
  const section = page.getByRole('region', { name: `Judge ${judge}` });
  await expect(section.getByRole('heading', { name: `Judge ${judge}` })).toBeVisible();
  for (const heading of ['Alternative annotator test', 'Agreement with the humans', 'Corrected estimates', 'Biases']) {
    await expect(section.getByRole('heading', { name: heading, exact: true })).toBeVisible();
  }

  // The page's report is the command line's, judges and all; the people's part is unchanged.
  const args = ['--study', study, path.basename(file), '--judges', path.basename(judgeFile)];
  const cliReport = JSON.parse(cli(testInfo, [...args, '--format', 'json']));
  expect(cliReport.judges.map((j: any) => j.judge)).toEqual([judge]);
  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  expect(differences(normalise(pageReport), normalise(cliReport))).toEqual([]);
  expect(differences(peoplesPart(pageReport), peoplesPart(withoutJudge))).toEqual([]);
  const markdown = cli(testInfo, [...args, '--format', 'md']);
  expect(await download(page, 'Download report (Markdown)', testInfo)).toBe(markdown);

  // Every table of the judge's section, cell by cell, as the Markdown writes it.
  const judgePart = markdown.slice(markdown.indexOf(`## Judge ${judge}`), markdown.indexOf('## Methods'));
  const expected = markdownTables(judgePart);
  expect(expected.length).toBeGreaterThanOrEqual(3);
  expect(await pageTables(section)).toEqual(expected);
  // The corrected estimates use the outputs only the judge scored.
  const corrected = cliReport.judges[0].dimensions[0].systems[0].corrected;
  expect(corrected.unlabelled).toBeGreaterThan(0);
  await expect(section.getByRole('table', { name: 'Corrected estimates' })).toContainText(
    `${corrected.labelled} / ${corrected.unlabelled}`,
  );
  // Numbers are aligned right, words left.
  const alt = section.getByRole('table', { name: 'Alternative annotator test' });
  await expect(alt.getByRole('columnheader', { name: 'Winning rate' })).toHaveCSS('text-align', 'right');
  await expect(alt.getByRole('columnheader', { name: 'Dimension' })).toHaveCSS('text-align', 'left');

  // A plot per dimension, named by its n and Spearman's rho.
  for (const d of cliReport.judges[0].dimensions) {
    const plot = section.getByRole('img', { name: new RegExp(`judge ${judge}'s score against the humans' mean score on ${d.dimension},`) });
    await expect(plot).toBeVisible();
    await expect(plot).toHaveAccessibleName(
      new RegExp(`${d.points.length} outputs, Spearman's ρ ${d.spearman.value.toFixed(3)} `),
    );
  }
  expect(errors).toEqual([]);
});

test("removing the judge's file takes its section away and leaves the people's report", async ({ page, errors }, testInfo) => {
  await withHumans(page, testInfo);
  const before = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  await page.getByLabel("Choose judges' verdicts").setInputFiles(judgeFile);
  const section = page.getByRole('region', { name: `Judge ${judge}` });
  await expect(section).toBeVisible();

  // By keyboard: the file's own remove button.
  const remove = page.getByRole('button', { name: 'Remove hare-judge-verdicts.csv' });
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(section).toHaveCount(0);
  await expect(page.getByText(/No judge's verdicts chosen/)).toBeVisible();
  const after = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  expect(differences(after, before)).toEqual([]);

  // Chosen again (each picker is cleared once read, so the same file is a change again), then
  // all removed at once.
  await page.getByLabel("Choose judges' verdicts").setInputFiles(judgeFile);
  await expect(section).toBeVisible();
  await page.getByRole('button', { name: "Remove all judges' files" }).click();
  await expect(section).toHaveCount(0);
  expect(errors).toEqual([]);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("the judge's plots fit a 320 px screen and the page does not scroll sideways", async ({ page, errors }, testInfo) => {
    await withHumans(page, testInfo);
    await page.getByLabel("Choose judges' verdicts").setInputFiles(judgeFile);
    const plot = page.getByRole('img', { name: /score against the humans' mean score on quality/ });
    await expect(plot).toBeVisible();
    const box = await plot.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(320);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    expect(errors).toEqual([]);
  });
});

test.describe('accessibility', () => {
  // axe-core is injected as a script of the test's own, which the app's CSP would refuse.
  test.use({ bypassCSP: true });

  test("the page with a judge's section passes an axe-core scan", async ({ page }, testInfo) => {
    await withHumans(page, testInfo);
    await page.getByLabel("Choose judges' verdicts").setInputFiles(judgeFile);
    await expect(page.getByRole('region', { name: `Judge ${judge}` })).toBeVisible();
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
