// Intent: a researcher checks a study before sending links: `&preview` walks the annotator's
// plan with each output's system shown, plainly marked as a preview, and records nothing.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test, expect, root } from './fixtures';
import { compiled } from './compile';
import { completeStudy } from './session';

test('a preview names each output\'s system, says it is a preview, and saves nothing', async ({ page, errors }) => {
  test.slow(); // walks all 50 trials of the study: about 50 s on two busy cores
  const study = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/financial-analysis.json'), 'utf8'));
  await page.goto('index.html?study=studies/financial-analysis.json&slot=1&preview');
  await expect(page.getByRole('status').filter({ hasText: 'Preview.' })).toContainText('nothing you answer is saved');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();

  const shown: string[] = [];
  const trials = await completeStudy(page, async () => {
    const system = page.locator('.preview-system code');
    await expect(system).toHaveCount(1); // one output per trial in this study
    shown.push((await system.textContent()) ?? '');
  });
  expect(trials).toBe(shown.length);
  // Every output named, by the study's own system ids, each system in turn.
  expect(shown.every((s) => study.systems.includes(s))).toBe(true);
  expect(new Set(shown)).toEqual(new Set(study.systems));

  // Nothing was written to storage.
  const saved = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror')));
  expect(saved).toEqual([]);
  expect(errors).toEqual([]);
});

test('an annotator\'s link shows no system and no preview banner', async ({ page }) => {
  test.slow(); // walks all 50 trials of the study: about 50 s on two busy cores
  await page.goto('index.html?study=studies/financial-analysis.json&slot=1');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  await expect(page.getByText('Preview.')).toHaveCount(0);
  let checked = 0;
  await completeStudy(page, async () => {
    await expect(page.locator('.preview-system')).toHaveCount(0);
    checked++;
  });
  expect(checked).toBeGreaterThan(0);
});

test('a preview of a study with a service sends nothing, keeps no record, offers no MTurk form, and its file says it is a preview', async ({ page, errors }) => {
  test.slow(); // fifty trials
  const receiver = 'http://127.0.0.1:8474';
  const study = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/financial-analysis.json'), 'utf8'));
  study.submit = { url: `${receiver}/in`, backups: true };
  await page.route('**/studies/financial-analysis-sent.json', (route) => route.fulfill({ body: compiled(study), contentType: 'application/json' }));
  // A build that allows the receiver and MTurk's sandbox.
  await page.route(/\/index\.html\?/, async (route) => {
    const response = await route.fetch();
    const body = (await response.text())
      .replace("connect-src 'self'", `connect-src 'self' ${receiver}`)
      .replace("form-action 'self'", "form-action 'self' https://workersandbox.mturk.com");
    await route.fulfill({ response, body });
  });
  const sent: string[] = [];
  await page.route(`${receiver}/**`, (route) => {
    sent.push(route.request().method());
    return route.fulfill({ status: 200, headers: { 'Access-Control-Allow-Origin': '*' }, body: 'ok' });
  });
  await page.goto('index.html?study=studies/financial-analysis-sent.json&slot=1&assignmentId=3ASG&hitId=3HIT&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com&preview');
  const trials = await completeStudy(page);
  expect(trials).toBeGreaterThan(10); // past a backup's turn
  await expect(page.getByText('Preview: this file is not sent to the study\'s service')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  const file = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
  expect(file.preview).toBe(true);
  // Saved, yet no MTurk form, no sending section and nothing sent; nothing in storage, no outbox.
  await expect(page.getByRole('status').filter({ hasText: 'Downloaded' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit the task on Mechanical Turk' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Sending your ratings to the researcher' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove my answers from this browser' })).toHaveCount(0);
  expect(sent).toEqual([]);
  const saved = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror')));
  expect(saved).toEqual([]);
  expect(errors).toEqual([]);
});

test('a preview of a published study shows tokens, and names the systems from the key chosen in the page, keeping nothing', async ({ page, errors }) => {
  // Published the README's way, into a folder served with the app.
  const site = path.join(root, 'dist/e2e-published/preview-key');
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'juror-keys-preview-'));
  fs.rmSync(site, { recursive: true, force: true });
  const original = path.join(root, 'assets/studies/financial-analysis.json');
  execFileSync(path.join(root, 'target/debug/juror'), ['publish', original, '--site', site, '--keys', keys, '--allow-named'], { encoding: 'utf8' });
  const systems: string[] = JSON.parse(fs.readFileSync(original, 'utf8')).systems;
  const study = JSON.parse(fs.readFileSync(path.join(site, 'studies/financial-analysis.json'), 'utf8'));
  // Served compiled, as a site's build compiles it.
  execFileSync(path.join(root, 'target/debug/juror'), ['compile', '--in-place', path.join(site, 'studies/financial-analysis.json')], { encoding: 'utf8' });

  await page.goto('index.html?study=e2e-published/preview-key/studies/financial-analysis.json&slot=1&preview');
  const banner = page.getByRole('status').filter({ hasText: 'Preview of a published study.' });
  await expect(banner).toContainText('Each output shows its sealed token');
  // The key's file name as juror publish wrote it (the study file's name, not its id).
  expect(study.id).not.toBe('financial-analysis');
  await expect(banner).toContainText('choose the study\'s key (financial-analysis.key.json in the keys folder juror publish wrote)');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.locator('.instructions .actions button.primary').click();
  await expect(page.getByRole('heading', { level: 1, name: /^Trial 1/ })).toBeVisible();
  const system = page.locator('.preview-system');
  await expect(system).toHaveText(/^System: s-[0-9a-f]{12}$/);

  // Not a key: said, and nothing changes.
  await page.getByLabel('Choose the key file').setInputFiles(original);
  await expect(page.getByText('This key cannot be used: this file is not a key written by juror publish')).toBeVisible();
  await expect(system).toHaveText(/^System: s-[0-9a-f]{12}$/);

  // The study's key: each output shows its system's name beside the token.
  await page.getByLabel('Choose the key file').setInputFiles(path.join(keys, 'financial-analysis.key.json'));
  await expect(page.getByText('The outputs now show their systems\' names')).toBeVisible();
  await expect(banner).toContainText('Each output shows its system\'s name, from the key, beside its token.');
  await expect(banner).not.toContainText('sealed token');
  const shown = (await system.textContent()) ?? '';
  const named = /^System: (.+) \(token s-[0-9a-f]{12}\)$/.exec(shown);
  expect(named, shown).not.toBeNull();
  expect(systems).toContain(named![1]);

  // Nothing of it was kept.
  const saved = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  expect(saved).not.toContain(named![1]);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror')))).toEqual([]);
  expect(errors).toEqual([]);
});

test('the researcher\'s page plays a study file as annotators see it, and shows a broken one\'s problems in full', async ({ page, errors }) => {
  await page.goto('analyse.html?study=studies/kitchen-qa.json&slot=1&preview');
  await expect(page.getByRole('status').filter({ hasText: 'Preview.' })).toContainText('nothing you answer is saved');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'I agree and want to take part' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();

  await page.route('**/studies/broken.json', (route) => route.fulfill({ body: '{"format": "juror.study/1", "id": "x"}', contentType: 'application/json' }));
  await page.goto('analyse.html?study=studies/broken.json');
  const problems = page.getByRole('list', { name: 'Problems' }).getByRole('listitem');
  await expect(problems.first()).toBeVisible();
  await expect(problems.filter({ hasText: 'title' }).first()).toBeVisible();
  expect(errors).toEqual([]);
});
