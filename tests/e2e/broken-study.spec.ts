// Intent: a researcher (or an annotator with a bad link) opens a study that cannot be used and
// is told exactly what is wrong, never shown a blank page.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, fixture } from './fixtures';
import { compiled } from './compile';
import { completeStudy } from './session';

test('a study with several problems lists each with its path and a fix', async ({ page, errors }) => {
  const body = fs.readFileSync(fixture('invalid/many-problems.json'), 'utf8');
  const expected = fs
    .readFileSync(fixture('invalid/many-problems.expected'), 'utf8')
    .trim()
    .split('\n');
  await page.route('**/studies/broken.json', (route) =>
    route.fulfill({ body, contentType: 'application/json' }),
  );
  await page.goto('index.html?study=studies/broken.json');
  await expect(
    page.getByRole('heading', { level: 1, name: `This study has ${expected.length} problems` }),
  ).toBeVisible();
  const problems = page.getByRole('list', { name: 'Problems' }).getByRole('listitem');
  await expect(problems).toHaveCount(expected.length);
  await expect(problems.first()).toContainText(expected[0].split(': ')[0]);
  await expect(page.getByText('items[0].outputs', { exact: true })).toBeVisible();
  await expect(page.getByText('no output for system "base"')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a syntax error gives the line and column', async ({ page }) => {
  const body = fs.readFileSync(fixture('invalid/syntax-error.json'), 'utf8');
  await page.route('**/studies/syntax.json', (route) => route.fulfill({ body }));
  await page.goto('index.html?study=studies/syntax.json');
  await expect(page.getByRole('heading', { level: 1, name: 'This study has 1 problem' })).toBeVisible();
  await expect(page.getByText('line 6, column 3', { exact: true })).toBeVisible();
});

test('a study that is not there says so and how to fix the link', async ({ page }) => {
  await page.goto('index.html?study=studies/no-such-study.json');
  await expect(
    page.getByRole('heading', { level: 1, name: 'This study could not be opened' }),
  ).toBeVisible();
  await expect(page.getByText(/answered 404/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open another study' })).toBeVisible();
});

test('a wrong study address in a fresh browser tells the annotator what to do, and promises nothing it lacks', async ({ page }) => {
  await page.goto('index.html?study=studies/kitchn.json&slot=1');
  await expect(page.getByRole('heading', { level: 1, name: 'This study could not be opened' })).toBeVisible();
  await expect(page.getByText('check that you opened all of it')).toBeVisible();
  // Nothing is saved in a fresh browser: nothing is said to be below, no researcher's tool for a wrong address.
  await expect(page.getByRole('region', { name: 'Answers saved in this browser' })).toHaveCount(0);
  await expect(page.getByText(/below/)).toHaveCount(0);
  await expect(page.getByText(/juror validate/)).toHaveCount(0);
  // Choosing a study file is the researcher's way, offered as a secondary action.
  const researchers = page.locator('.for-researchers');
  await expect(researchers).toContainText('Researchers: the study file must be on the site at this address');
  await expect(researchers.getByText('Choose a study file', { exact: true })).toHaveClass(/secondary/);
  await expect(page.locator('.study-problems .button:not(.secondary)')).toHaveCount(0);
});

test('with answers saved for the study, the page that cannot open it says they are kept and offers them', async ({ page }) => {
  const study = fs.readFileSync(fixture('valid/minimal.json'), 'utf8');
  await page.route('**/studies/minimal.json', (route) => route.fulfill({ body: compiled(study), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/minimal.json&slot=1');
  await completeStudy(page);
  // The study has moved: the old link's address no longer answers.
  await page.goto('index.html?study=moved/minimal.json&slot=1');
  await expect(page.getByRole('heading', { level: 1, name: 'This study could not be opened' })).toBeVisible();
  const list = page.getByRole('region', { name: 'Answers saved in this browser' });
  await expect(list.getByText('The answers already given to this study are kept in this browser.')).toBeVisible();
  await expect(list.getByRole('button', { name: /^Download minimal — slot 1/ })).toBeVisible();
});

test('a study file with problems names its contact and keeps the researcher\'s hint for researchers', async ({ page }) => {
  const study = JSON.parse(fs.readFileSync(fixture('valid/minimal.json'), 'utf8'));
  study.contact = 'Kitchen Lab, kitchen-lab@example.org';
  delete study.items[0].outputs.ours;
  await page.route('**/studies/half.json', (route) => route.fulfill({ body: JSON.stringify(study), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/half.json&slot=1');
  await expect(page.getByRole('heading', { level: 1, name: 'This study has 1 problem' })).toBeVisible();
  await expect(page.getByText('tell the researcher who sent it: the study file itself needs fixing')).toBeVisible();
  await expect(page.getByRole('link', { name: 'kitchen-lab@example.org' })).toHaveAttribute('href', 'mailto:kitchen-lab@example.org');
  await expect(page.locator('.for-researchers')).toContainText('juror validate lists the same problems');
});

test('a misspelt link parameter says the link looks broken and names the parameter meant', async ({ page, errors }) => {
  await page.goto('index.html?sutdy=studies/financial-analysis.json&slot=1');
  await expect(page.getByRole('alert')).toHaveText(
    'This link looks broken. The link has a parameter Juror does not know: sutdy (did you mean study?). Ask the researcher for the link again.',
  );
  // The study right and the slot misspelt: the page asks for a code, and says why.
  await page.goto('index.html?study=studies/financial-analysis.json&slto=1');
  await expect(page.getByLabel('Your participant code')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('slto (did you mean slot?)');
  // A link without a slot, but nothing misspelt: no alert.
  await page.goto('index.html?study=studies/financial-analysis.json');
  await expect(page.getByLabel('Your participant code')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// Annotators with a working link never see these pages: their code is a wasm of its own,
// fetched only when one is shown.
const problemsWasm = /\/juror-app-[0-9a-f]+_problems\.wasm$/;

test('the page of a study that cannot be opened says it is loading until its code is in', async ({ page, errors }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(problemsWasm, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('index.html?study=studies/no-such-study.json&slot=1');
  await expect(page.getByRole('status').filter({ hasText: 'Loading the study’s pages…' })).toBeVisible();
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'This study could not be opened' })).toBeVisible();
  await expect(page.getByText('Loading the study’s pages…')).toHaveCount(0);
  expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
});

test('when that code cannot be fetched, the page asks to reload, and then shows what is wrong', async ({ page }) => {
  await page.route(problemsWasm, (route) => route.abort('internetdisconnected'));
  await page.goto('index.html?study=studies/no-such-study.json&slot=1');
  const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
  await expect(alert).toBeVisible();
  await page.unroute(problemsWasm);
  await alert.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'This study could not be opened' })).toBeVisible();
});

/** Serves `body` as the study, opens it, and expects the page `heading` with `code` in its
 * alert and no way to start. */
async function expectRefused(page: Page, body: string, heading: string, code: string) {
  await page.route('**/studies/refused.json', (route) => route.fulfill({ body, contentType: 'application/json' }));
  await page.goto('index.html?study=studies/refused.json&slot=1');
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(code);
  await expect(page.getByRole('button', { name: 'Start' })).toHaveCount(0);
}

// A compiled study's welcome page is shown from its cover; the study itself is read with the
// session's code. One whose cover is not its study's (edited by hand with the checksum made
// right, or a compiler's mistake) shows its problems once that code is in, before anything
// can be answered.
test('a compiled study whose cover is not its own shows what is wrong before anything is answered', async ({ page, errors }) => {
  const text = compiled(fs.readFileSync(fixture('valid/minimal.json'), 'utf8'));
  const coverAt = text.indexOf('"cover":') + '"cover":'.length;
  const studyAt = text.indexOf(',"study":');
  const cover = text.slice(coverAt, studyAt).replace(/"trials":\d+/, '"trials":99');
  const study = text.slice(studyAt + ',"study":'.length, text.lastIndexOf('}'));
  const checksum = crypto.createHash('sha256').update(cover + study).digest('hex');
  const lying = text
    .slice(0, coverAt)
    .replace(/"checksum":"[0-9a-f]{64}"/, `"checksum":"${checksum}"`)
    .concat(cover, ',"study":', study, '}\n');
  await expectRefused(page, lying, 'This study cannot be opened', '[compiled.cover]');
  expect(errors).toEqual([]);
});

// The welcome page is shown from the cover read ahead (no checksum yet); the checksum is
// checked as soon as that page is painted, before the app, let alone the session, can open
// the study: a text changed after compiling is refused with its code.
test('a compiled study changed after compiling cannot be started, whatever its first page showed', async ({ page, errors }) => {
  const text = compiled(fs.readFileSync(fixture('valid/minimal.json'), 'utf8'));
  const changed = text.replace(/"study":\{/, '"study":{ ');
  expect(changed).not.toBe(text);
  await expectRefused(page, changed, 'This study has 1 problem', '[compiled.checksum]');
  expect(errors).toEqual([]);
});
