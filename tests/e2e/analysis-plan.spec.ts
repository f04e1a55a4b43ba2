// Intent: a researcher analyses each example study as its protocol pre-registers (the study
// file's `analysis` section), in the page exactly as with `juror analyze`, and can try another
// plan in the page, which then says the report is exploratory and matches the command line
// with the same flags.
import * as path from 'node:path';
import { test, expect, root } from './fixtures';
import { cli, differences, dir, download, normalise } from './analysis-helpers';

// `dimension` is the heading the report gives a dimension: the study's label, then its id unless
// the label is the id but for case.
const examples: { study: string; files: string[]; dimension: string }[] = [
  // The HARE study: HARE against each baseline, over participants, Bonferroni over 12.
  { study: 'hare-personalization', files: ['hare-ratings.csv'], dimension: 'Quality' },
  // The reasoning-trajectories study: the stated pairs and the group contrast.
  {
    study: 'reasoning-trajectories',
    files: ['trajectories-slot1.json', 'trajectories-slot2.json', 'trajectories-slot3.json'],
    dimension: 'Coherence / Logicality (coherence)',
  },
  // The work-intake study: every pair, also per item group.
  { study: 'work-intake', files: ['work-intake-slot1.json', 'work-intake-slot2.json'], dimension: 'Relevance' },
];

for (const { study, files, dimension } of examples) {
  test(`${study}: the page follows the study's plan, as juror analyze does`, async ({ page, errors }, testInfo) => {
    const studyPath = path.join(root, 'assets/studies', `${study}.json`);
    await page.goto('analyse.html');
    await page.getByLabel('Choose the study file').setInputFiles(studyPath);
    await page.getByLabel('Choose ratings files or CSVs').setInputFiles(files.map((f) => path.join(dir, f)));
    await expect(page.getByRole('heading', { name: dimension, exact: true })).toBeVisible();
    await page.getByText('Analysis plan', { exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Following the plan the study file pre-registers.' })).toBeVisible();

    if (study === 'work-intake') {
      // Best of four: each choice counted once, with its share and interval.
      const choices = page.getByRole('region', { name: 'Best-of-N choices' });
      await expect(choices.getByText('18 choice(s), one per trial.')).toBeVisible();
      await expect(choices.getByRole('table', { name: 'Best-of-N choices per system' }).getByRole('row')).toHaveCount(5);
      await expect(page.getByText(/54 of them derived from best-of-N choices/)).toBeVisible();
    }
    const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
    const cliReport = JSON.parse(cli(['--study', studyPath, ...files]));
    expect(pageReport.settings.plan_source).toBe('study');
    if (study === 'hare-personalization') {
      // Over rounds, as the Markdown has it: each slope's 95% t interval, each fixed effect's
      // Wald interval, and the joint test of the system × round terms.
      const rounds = cliReport.dimensions.find((d: any) => d.dimension === 'personalization').rounds;
      const ci = (c: any, digits: number) => `[${c.low.toFixed(digits)}, ${c.high.toFixed(digits)}]`;
      const hare = rounds.trends.find((t: any) => t.system === 'hare');
      const slopes = page.getByRole('table', { name: 'Slope of Personalization per round' });
      await expect(slopes.getByRole('row', { name: /^hare / })).toContainText(ci(hare.slope_ci95, 3));
      const term = rounds.mixed_model.fixed_effects.find((f: any) => f.name === 'system[T.rag]:round');
      const effects = page.getByRole('table', { name: 'Fixed effects of the mixed model on Personalization' });
      await expect(effects.getByRole('row', { name: /^system\[T\.rag\]:round / })).toContainText(ci(term.ci95, 4));
      const joint = rounds.mixed_model.interaction_test;
      await expect(page.getByText(`χ² = ${joint.chi2.toFixed(3)}, df = ${joint.df}, p = ${joint.p_value.toFixed(3)}`)).toBeVisible();
    }
    expect(differences(normalise(pageReport), normalise(cliReport))).toEqual([]);
    expect(await download(page, 'Download report (Markdown)', testInfo)).toBe(
      cli(['--study', studyPath, ...files, '--format', 'md']),
    );
    expect(errors).toEqual([]);
  });
}

test('another plan chosen in the page is exploratory and equals the same flags of juror analyze', async ({ page, errors }, testInfo) => {
  const studyPath = path.join(root, 'assets/studies/hare-personalization.json');
  const files = ['hare-ratings.csv'];
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(studyPath);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(files.map((f) => path.join(dir, f)));
  const quality = page.getByRole('table', { name: /^Comparisons on Quality, paired on/ });
  const region = page.getByRole('region', { name: 'Quality', exact: true });
  await expect(quality).toBeVisible();
  // As pre-registered: HARE against each baseline over the twelve participants.
  await expect(quality.getByRole('row')).toHaveCount(4);
  await expect(quality).toContainText('paired on annotators (p adjusted: Bonferroni)');
  await expect(region.getByRole('heading', { name: 'Comparisons', exact: true })).toBeVisible();

  await page.getByText('Analysis plan', { exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Unit of analysis', exact: true })).toHaveValue('');
  await expect(page.getByRole('combobox', { name: 'Comparisons', exact: true })).toContainText('As planned: hare against each other system');
  await page.getByRole('combobox', { name: 'Unit of analysis', exact: true }).selectOption('item');
  await page.getByRole('combobox', { name: 'Comparisons', exact: true }).selectOption('all');
  await page.getByRole('combobox', { name: 'Correction', exact: true }).selectOption('holm');
  await page.getByLabel('Non-inferiority margin, every comparison').fill('0.25');
  await page.getByLabel('Non-inferiority margin, every comparison').blur();
  await page.getByRole('combobox', { name: 'Models of the ratings', exact: true }).selectOption('both');
  await page.getByRole('combobox', { name: 'Rater quality', exact: true }).selectOption('dawid_skene');
  await page.getByLabel('Anytime-valid intervals, planned units').fill('10');
  await page.getByLabel('Anytime-valid intervals, planned units').blur();
  await expect(page.getByRole('status').filter({ hasText: 'Exploratory' })).toBeVisible();
  // The models beside the tests: annotators and items apart, and the scores as ordered categories.
  await expect(page.getByRole('heading', { name: 'Crossed random effects: annotators and items' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Odds ratios of a higher score on quality' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Rater quality (Dawid–Skene)' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Annotators on quality, by estimated accuracy' })).toBeVisible();
  await expect(region.getByText(/^gpt2 vs hare: anytime-valid 95% confidence sequence of A − B \[/)).toBeVisible();
  // Every pair of the four systems now, on the ten items.
  await expect(quality.getByRole('row')).toHaveCount(7);
  await expect(quality).toContainText('paired on items (p adjusted: Holm)');
  await expect(page.getByRole('region', { name: 'Methods' })).toContainText(
    'The analysis plan was chosen at analysis time (exploratory).',
  );
  // Each comparison's non-inferiority test, in the notes under the table as in the Markdown.
  await expect(region.getByText('gpt2 vs hare: non-inferiority with margin 0.25: p (t) 1.000, p (W) 1.000')).toBeVisible();

  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  const cliReport = JSON.parse(
    cli([
      '--study', studyPath, ...files, '--unit', 'item', '--all-pairs', '--correction', 'holm', '--margin', '0.25',
      '--models', 'crossed,ordinal', '--sequential', '10', '--raters', 'dawid-skene',
    ]),
  );
  expect(pageReport.settings.plan_source).toBe('options');
  expect(pageReport.settings.plan.unit).toBe('item');
  expect(differences(normalise(pageReport), normalise(cliReport))).toEqual([]);

  // Back to the pre-registered plan.
  await page.getByRole('button', { name: 'Back to the pre-registered plan' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Following the plan the study file pre-registers.' })).toBeVisible();
  await expect(quality.getByRole('row')).toHaveCount(4);
  expect(errors).toEqual([]);
});

test('pairs written in the page are checked against the study', async ({ page }) => {
  const studyPath = path.join(root, 'assets/studies/hare-personalization.json');
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(studyPath);
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(path.join(dir, 'hare-ratings.csv'));
  await page.getByText('Analysis plan', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Comparisons', exact: true }).selectOption('pairs');
  await expect(page.getByRole('alert')).toContainText('Write the pairs below');
  await page.getByLabel('Pairs (A:B, C:D)').fill('hare:gpt9');
  await page.getByLabel('Pairs (A:B, C:D)').blur();
  await expect(page.getByRole('alert').filter({ hasText: 'unknown system "gpt9"' })).toBeVisible();
  await page.getByLabel('Pairs (A:B, C:D)').fill('hare:rag, gpt2:random');
  await page.getByLabel('Pairs (A:B, C:D)').blur();
  const quality = page.getByRole('table', { name: /^Comparisons on Quality, paired on/ });
  await expect(quality.getByRole('row')).toHaveCount(3);
  await expect(quality.getByRole('row', { name: /^gpt2 random / })).toBeVisible();
});
