// Intent: a researcher whose participants asked the same prompts and got outputs of their own
// drops the study and the ratings on the Analyse page and reads, as `juror analyze` computes
// them, each system's output divergence across annotators and whether one system diverges more
// than another, as the plan's divergence hypotheses ask (the personalisation protocol's "HARE
// diverges more than RAG").
//
// The fixtures (beside the reference values of the divergence):
// `comparisons-study.json`, nine prompts asked by two or three participants with a system that
// personalises (hare), a retrieval baseline that nearly repeats itself (rag) and a generic one
// (gpt2), its plan an anchor and two one-sided divergence hypotheses; `comparisons-ratings.csv`,
// made-up ratings of its items.
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, root } from './fixtures';
import { cli, differences, download } from './analysis-helpers';

const dir = path.join(root, 'crates/juror-core/tests/reference/divergence');
const study = path.join(dir, 'comparisons-study.json');
const ratings = path.join(dir, 'comparisons-ratings.csv');

/** A p-value as the report's tables write it. */
function p(value: number): string {
  return value < 0.001 ? '< 0.001' : value.toFixed(3);
}

async function open(page: Page): Promise<void> {
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles([ratings]);
  await expect(page.getByRole('heading', { name: 'Analysis report', exact: true })).toBeVisible();
}

test('the divergence table and the comparisons of divergence are the command line numbers', async ({
  page,
  errors,
}, testInfo) => {
  await open(page);
  const report = JSON.parse(cli(['--study', study, ratings, '--format', 'json']));
  expect(report.divergence_comparisons).toHaveLength(3);

  // Each system's divergence: mean distance to three places, its interval, prompts and pairs.
  const table = page.getByRole('table', { name: 'Output divergence across annotators' });
  await expect(table).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(1 + report.divergence.length);
  for (const d of report.divergence) {
    const cells = table.getByRole('row', { name: new RegExp(`^${d.system} `) }).getByRole('cell');
    await expect(cells.nth(0)).toHaveText(d.mean.toFixed(3));
    await expect(cells.nth(1)).toHaveText(`[${d.ci95.low.toFixed(3)}, ${d.ci95.high.toFixed(3)}]`);
    await expect(cells.nth(2)).toHaveText(String(d.prompts));
    await expect(cells.nth(3)).toHaveText(String(d.pairs));
  }

  // The comparisons: one row per pair, A first, the hypothesis with its direction, the
  // prompts it rests on, the difference and the tests.
  await expect(page.getByRole('heading', { name: 'Comparisons of divergence' })).toBeVisible();
  const compared = page.getByRole('table', { name: 'Comparisons of output divergence' });
  await expect(compared.getByRole('row')).toHaveCount(1 + report.divergence_comparisons.length);
  for (const c of report.divergence_comparisons) {
    const row = compared.getByRole('row', { name: new RegExp(`^${c.system_a} ${c.system_b} `) });
    const cells = row.getByRole('cell');
    const relation = { greater: '>', less: '<', 'two-sided': '≠' }[c.alternative as string];
    await expect(cells.nth(1)).toHaveText(c.hypothesis ? `${c.hypothesis} (A ${relation} B)` : `A ${relation} B`);
    await expect(cells.nth(2)).toHaveText(String(c.n));
    await expect(cells.nth(5)).toHaveText(c.mean_diff.toFixed(3));
    await expect(cells.nth(8)).toHaveText(p(c.t_test.p_value));
    await expect(cells.nth(10)).toHaveText(p(c.wilcoxon.p_value));
    await expect(cells.nth(11)).toHaveText(p(c.p_adjusted));
  }
  // The protocol's question, answered in the row of its hypothesis.
  const hareRag = compared.getByRole('row', { name: /^hare rag Divergence above RAG \(A > B\) 9 / });
  await expect(hareRag).toBeVisible();
  // The methods say how the comparisons were made.
  await expect(page.getByText(/Two systems' divergences were compared over the prompts both have/)).toBeVisible();

  // The page's report is the command line's, to the bit.
  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  expect(differences(pageReport.divergence, report.divergence)).toEqual([]);
  expect(differences(pageReport.divergence_comparisons, report.divergence_comparisons)).toEqual([]);
  expect(errors).toEqual([]);
});
