// Intent: a researcher whose plan confines the confirmatory analysis to the items of one domain
// (`analysis.confirmatory`) reads on the Analyse page which items are confirmatory and, apart,
// the analysis of the other domain's items, exploratory and not corrected, with the numbers
// `juror analyze` gives: the page shows what its Markdown and JSON downloads hold.
//
// The fixtures: the example study `two-domains.json` (three items of Claude skills, the
// confirmatory domain, and three of study plans) and `two-domains-ratings.csv`, made-up ratings
// of its items by six annotators over three rounds.
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, root } from './fixtures';
import { cli, differences, dir, download, normalise } from './analysis-helpers';

const study = path.join(root, 'assets/studies/two-domains.json');
const ratings = 'two-domains-ratings.csv';

/**
 * `value` to three places as Rust's `{:.3}` writes it: an exact tie (the Wilcoxon test's exact
 * p-values are multiples of 1/2^n, 0.0625) goes to the even digit, where `toFixed` rounds up.
 */
function fixed3(value: number): string {
  const scaled = value * 1000;
  const low = Math.floor(scaled);
  if (scaled - low === 0.5 && (low + 0.5) / 1000 === value) return ((low % 2 === 0 ? low : low + 1) / 1000).toFixed(3);
  return value.toFixed(3);
}

/** A p-value as the report's tables write it. */
function p(value: number): string {
  return value < 0.001 ? '< 0.001' : fixed3(value);
}

async function open(page: Page): Promise<void> {
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles([path.join(dir, ratings)]);
  await expect(page.getByRole('heading', { name: 'Analysis report', exact: true })).toBeVisible();
}

test('the scope is stated and the secondary analysis of the other domain is the command line one', async ({
  page,
  errors,
}, testInfo) => {
  await open(page);
  const report = JSON.parse(cli(['--study', study, ratings, '--format', 'json']));
  const scope = report.scope;
  expect(scope.grouping).toBe('domain');
  expect(scope.group).toBe('claude-skills');
  expect(scope.secondary).toHaveLength(1);
  const secondary = scope.secondary[0];
  expect(secondary.group).toBe('study-plans');

  // Near the top, in the report's first paragraph as in the Markdown: which items the
  // confirmatory analysis is on, and what is reported apart.
  await expect(
    page.getByText(
      `The confirmatory analysis is on the ${scope.items} item(s) with domain claude-skills ` +
        `(${scope.ratings} rating(s)); the items of the other value(s) (study-plans) are reported ` +
        'apart, each as a secondary analysis (exploratory, not corrected).',
    ),
  ).toBeVisible();

  // The secondary analysis: a region of its own, said to be exploratory and uncorrected.
  const region = page.getByRole('region', { name: 'Secondary analysis: items with domain study-plans' });
  await expect(region).toBeVisible();
  await expect(
    region.getByRole('heading', { name: 'Secondary analysis: items with domain study-plans' }),
  ).toBeVisible();
  await expect(
    region.getByText(
      `${secondary.items} item(s), ${secondary.ratings} rating(s). Exploratory: the plan's comparisons`,
    ),
  ).toContainText('not in its corrected family: p-values are not adjusted.');

  // Each system on personalization, on the study plans' items alone.
  const personalization = secondary.dimensions.find((d: any) => d.dimension === 'personalization');
  const table = region.getByRole('table', { name: 'Systems on Personalization (domain study-plans)' });
  await expect(table.getByRole('row')).toHaveCount(1 + personalization.systems.length);
  for (const s of personalization.systems) {
    const cells = table.getByRole('row', { name: new RegExp(`^${s.system} `) }).getByRole('cell');
    await expect(cells.nth(0)).toHaveText(String(s.n));
    await expect(cells.nth(1)).toHaveText(String(s.n_ratings));
    await expect(cells.nth(2)).toHaveText(`${s.mean.toFixed(2)} ± ${s.sd.toFixed(2)}`);
  }

  // The plan's comparisons with the anchor, their p-values as computed and none corrected.
  const compared = region.getByRole('table', { name: 'Comparisons on Personalization, domain study-plans' });
  await expect(compared.getByRole('row')).toHaveCount(1 + personalization.comparisons.length);
  for (const c of personalization.comparisons) {
    expect(c.exploratory).toBe(true);
    expect(c.p_bonferroni).toBeNull();
    const cells = compared.getByRole('row', { name: new RegExp(`^${c.system_a} ${c.system_b} `) }).getByRole('cell');
    await expect(cells.nth(2)).toHaveText(String(c.n));
    await expect(cells.nth(5)).toHaveText(c.mean_diff.toFixed(2));
    await expect(cells.nth(8)).toHaveText(p(c.t_test.p_value));
    await expect(cells.nth(10)).toHaveText(p(c.wilcoxon.p_value));
    await expect(cells.nth(11)).toHaveText('–');
  }

  // The planned slope, not corrected: its p-value is its own.
  const slope = secondary.hypotheses.find((h: any) => h.name === 'H3');
  expect(slope.corrected).toBe(false);
  const planned = region.getByRole('table', { name: 'Planned tests of slopes and preferences' });
  const row = planned.getByRole('row', { name: /^H3 / }).getByRole('cell');
  await expect(row.last()).toHaveText(p(slope.p_adjusted));
  await expect(region.getByText(/not corrected \(a secondary analysis\)/)).toBeVisible();

  // The page's report is the command line's, to the bit.
  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  expect(differences(pageReport.scope, report.scope)).toEqual([]);
  expect(normalise(pageReport)).toEqual(normalise(report));
  expect(errors).toEqual([]);
});
