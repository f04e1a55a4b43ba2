// Intent: someone with a study file on their computer opens it without any server or link.
import { test, expect, fixture, root } from './fixtures';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compiled } from './compile';

test('picking a compiled study file opens its welcome page; a study as written is sent to the researcher\'s page, which opens it', async ({ page, errors }, testInfo) => {
  const written = path.join(root, 'assets/studies/financial-analysis.json');
  const compiledPath = testInfo.outputPath('financial-analysis.json');
  fs.writeFileSync(compiledPath, compiled(fs.readFileSync(written, 'utf8')));
  await page.goto('index.html');
  await expect(page.getByRole('heading', { level: 1, name: 'Juror' })).toBeVisible();
  await page.getByLabel('Choose a study file').setInputFiles(compiledPath);
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Juror');
  await expect(page.getByText('Estimated time', { exact: true })).toBeVisible();

  // The study as written: the annotator's page does not play it, and says where it opens.
  await page.goto('index.html');
  await page.getByLabel('Choose a study file').setInputFiles(written);
  await expect(page.getByRole('heading', { level: 1, name: 'This study opens on the researcher\'s page' })).toBeVisible();
  await page.getByRole('link', { name: 'Open it on the researcher\'s page' }).click();
  await expect(page).toHaveURL(/analyse\.html\?open$/);
  await page.getByLabel('Choose a study file').setInputFiles(written);
  await expect(page.getByText('Estimated time', { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test('picking a broken study file on the researcher\'s page lists its problems; a damaged compiled one on the annotator\'s page, its codes', async ({ page }, testInfo) => {
  await page.goto('analyse.html?open');
  await page.getByLabel('Choose a study file').setInputFiles(fixture('invalid/missing-output.json'));
  await expect(page.getByRole('heading', { level: 1, name: 'This study has 1 problem' })).toBeVisible();
  await expect(page.getByText('items[1].outputs', { exact: true })).toBeVisible();

  const damaged = testInfo.outputPath('damaged.json');
  const text = compiled(fs.readFileSync(path.join(root, 'assets/studies/kitchen-qa.json'), 'utf8'));
  fs.writeFileSync(damaged, text.replace('"systems":[', '"systems":["extra",'));
  await page.goto('index.html');
  await page.getByLabel('Choose a study file').setInputFiles(damaged);
  await expect(page.getByRole('heading', { level: 1, name: 'This study has 1 problem' })).toBeVisible();
  await expect(page.getByText('[compiled.checksum]')).toBeVisible();
});

test('typing a study address opens it', async ({ page }) => {
  await page.goto('index.html');
  await page.getByLabel('Or open a study by its address').fill('studies/pandalm.json');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page).toHaveURL(/study=studies%2Fpandalm\.json/);
  await expect(page.getByText('Pages to judge', { exact: true })).toBeVisible();
});
