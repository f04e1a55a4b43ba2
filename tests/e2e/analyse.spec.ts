// Intent: a researcher analyses ratings files in the page and gets the very report that
// `juror analyze` writes for the same files, with the same defaults.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, expect, root } from './fixtures';
import { cli, differences, dir, download, juror, normalise } from './analysis-helpers';

/** `text` as a regular expression that matches it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('the open page links to the analysis page, a page and a wasm of its own', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.goto('index.html');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The annotator's page never loads the researcher's code.
  expect(requested.filter((p) => p.includes('analyse'))).toEqual([]);
  await page.getByRole('link', { name: 'Analyse ratings files' }).click();
  await expect(page).toHaveURL(/\/analyse\.html$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Analyse ratings' })).toBeVisible();
  expect(requested.some((p) => /\/juror-analyse-[0-9a-f]{16}_bg\.wasm$/.test(p))).toBe(true);
});

test('an old link to the analysis page (index.html?analyse) still opens it', async ({ page }) => {
  await page.goto('index.html?analyse');
  await expect(page).toHaveURL(/\/analyse\.html$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Analyse ratings' })).toBeVisible();
});

test('ratings of the financial study: the page report equals juror analyze', async ({ page, errors }, testInfo) => {
  const files = ['financial-slot1.json', 'financial-slot2.json', 'financial-slot3.json'];
  const study = path.join(root, 'assets/studies/financial-analysis.json');

  await page.goto('analyse.html');
  await expect(page.getByRole('heading', { level: 1, name: 'Analyse ratings' })).toBeVisible();
  await page.getByLabel('Choose the study file').setInputFiles(study);
  await page
    .getByLabel('Choose ratings files or CSVs')
    .setInputFiles(files.map((f) => path.join(dir, f)));
  await expect(page.getByRole('heading', { name: 'Overall quality (quality)', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Systems on Overall quality (quality)' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Agreement on Overall quality (quality)' })).toBeVisible();
  await expect(page.getByRole('img', { name: /95% confidence interval per system on quality/ })).toBeVisible();
  await expect(page.getByText('No problems in the files.')).toBeVisible();

  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  const cliReport = JSON.parse(cli(['--study', study, ...files, '--format', 'json']));
  expect(pageReport.settings).toEqual({ ...cliReport.settings }); // defaults: flag SD 1.5, seed 0, 2000 resamples
  expect(normalise(pageReport)).toEqual(normalise(cliReport));

  // The distributions as diverging stacked bars: an image whose name gives every count, with
  // the study's labels of the scale points, and a legend of them.
  const quality = cliReport.dimensions[0];
  const bars = page.getByRole('img', { name: /^Distribution of the ratings on quality per system/ });
  await expect(bars).toBeVisible();
  for (const s of quality.systems) {
    const counts = s.distribution.map((c: any) => `: ${c.count} \\(`).join('.*');
    await expect(bars).toHaveAccessibleName(new RegExp(`${escape(s.system)} \\(${s.n_ratings} ratings\\): 1 Very Poor${counts}`));
  }
  await expect(bars).toHaveAccessibleName(/centred on 3 Acceptable, the neutral point split half each side/);
  await expect(page.getByRole('list', { name: 'Scale points of quality' }).getByRole('listitem')).toHaveText([
    '1 Very Poor', '2 Poor', '3 Acceptable', '4 Good', '5 Excellent',
  ]);
  // The means chart says its numbers too.
  await expect(page.getByRole('img', { name: /95% confidence interval per system on quality/ })).toHaveAccessibleName(
    new RegExp(`${escape(quality.systems[0].system)} ${quality.systems[0].mean.toFixed(3)} \\(`),
  );

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
  await page.goto('analyse.html');
  await page.getByLabel('Choose the study file').setInputFiles(path.join(dir, 'pandalm-sealed-study.json'));
  await page.getByLabel('Choose the key').setInputFiles(path.join(dir, 'pandalm-key.json'));
  await page
    .getByLabel('Choose ratings files or CSVs')
    .setInputFiles(files.map((f) => path.join(dir, f)));
  await expect(page.getByRole('heading', { name: 'Preferences', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: /^Bradley–Terry ranking/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download adjudication sheet' })).toHaveCount(0);

  const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
  const cliReport = JSON.parse(
    cli(['--study', 'pandalm-sealed-study.json', '--key', 'pandalm-key.json', ...files]),
  );
  expect(pageReport.preferences).not.toBeNull();
  expect(differences(normalise(pageReport), normalise(cliReport))).toEqual([]);

  // The Bradley–Terry ranking and the preference matrix are images named by their numbers.
  const bt = cliReport.preferences.bradley_terry.scores;
  const ranked = Object.keys(bt).sort((a, b) => bt[b].score - bt[a].score);
  const ranking = page.getByRole('img', { name: /^Bradley–Terry strengths/ });
  await expect(ranking).toBeVisible();
  await expect(ranking).toHaveAccessibleName(
    new RegExp(
      ranked
        .map((s, i) => `${i + 1}\\. ${escape(s)} ${bt[s].score.toFixed(3)} \\(${bt[s].ci.low.toFixed(3)} to ${bt[s].ci.high.toFixed(3)}\\)`)
        .join('; '),
    ),
  );
  const matrix = page.getByRole('img', { name: /^Preference matrix/ });
  await expect(matrix).toBeVisible();
  await expect(matrix).toHaveAccessibleName(/a tie counted as half a win/);
  for (const p of cliReport.preferences.pairs) {
    const [a, b] = [escape(p.system_a), escape(p.system_b)];
    const share = (w: number) => `${Math.round((100 * (w + p.ties / 2)) / (p.wins + p.losses + p.ties))}%`;
    await expect(matrix).toHaveAccessibleName(
      new RegExp(
        `${a} over ${b}: ${share(p.wins)} \\(${p.wins} wins, ${p.losses} losses, ${p.ties} ties\\)|` +
          `${b} over ${a}: ${share(p.losses)} \\(${p.losses} wins, ${p.wins} losses, ${p.ties} ties\\)`,
      ),
    );
  }
  expect(errors).toEqual([]);
});

test('a file that is not ratings is listed with where and what', async ({ page }) => {
  await page.goto('analyse.html');
  await page
    .getByLabel('Choose ratings files or CSVs')
    .setInputFiles([path.join(dir, 'financial-slot1.json'), path.join(dir, 'bad-rows.csv')]);
  // The report's last section lists them, as the Markdown report does.
  const problems = page.getByRole('region', { name: 'Problems with the inputs' }).getByRole('listitem');
  await expect(problems.first()).toContainText('bad-rows.csv');
  // Exit status 1: some input had problems; the report covers the rest.
  const run = spawnSync(juror, ['analyze', 'financial-slot1.json', 'bad-rows.csv'], { cwd: dir, encoding: 'utf8' });
  expect(run.status).toBe(1);
  const cliReport = JSON.parse(run.stdout);
  expect(cliReport.problems.length).toBeGreaterThan(0);
  await expect(problems).toHaveCount(cliReport.problems.length);
});

test.describe('accessibility', () => {
  // axe-core is injected as a script of the test's own, which the app's CSP would refuse; the
  // other tests of this file run under the policy (a refused inline style would be a console
  // error, and they check there is none).
  test.use({ bypassCSP: true });

  test('the analysis page with a report passes an axe-core scan', async ({ page }) => {
    await page.goto('analyse.html');
    await page
      .getByLabel('Choose ratings files or CSVs')
      .setInputFiles(['financial-slot1.json', 'financial-slot2.json', 'bad-rows.csv'].map((f) => path.join(dir, f)));
    await expect(page.getByRole('heading', { name: 'quality', exact: true })).toBeVisible();
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

/** `value` as JSON with object keys sorted and no spaces: what a ratings file's checksum is of. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as any)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

test('participants from Prolific appear under pseudonyms until the researcher asks for their ids', async ({ page, errors }) => {
  const crypto = await import('node:crypto');
  const pids = ['5f0c9a11aa', '5f0c9a22bb', '5f0c9a33cc'];
  const files = pids.map((pid, i) => {
    const file = JSON.parse(fs.readFileSync(path.join(dir, `financial-slot${i + 1}.json`), 'utf8'));
    file.annotator.id = pid;
    file.annotator.platform = { name: 'prolific', STUDY_ID: '65a1', SESSION_ID: `s${i}` };
    delete file.sha256;
    file.sha256 = crypto.createHash('sha256').update(canonical(file)).digest('hex');
    return { name: `participant-${i + 1}.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) };
  });
  await page.goto('analyse.html');
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(files);
  const annotators = page.getByRole('table', { name: /^Annotators/ });
  await expect(annotators).toContainText(/prolific-[0-9a-f]{12}/);
  const main = page.getByRole('main');
  await expect(page.getByText('No problems in the files.')).toBeVisible();
  for (const pid of pids) expect(await main.innerText()).not.toContain(pid);
  await expect(page.getByText(/Platform ids are pseudonymised with a salt drawn from the ratings files/)).toBeVisible();

  await page.getByLabel("Show participants' platform ids (for payment)").check();
  for (const pid of pids) await expect(annotators).toContainText(pid);
  await expect(page.getByText(/Platform ids are shown as the platform gave them/)).toBeVisible();
  expect(errors).toEqual([]);
});
