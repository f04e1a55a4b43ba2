// Intent: someone with a study file on their computer opens it without any server or link.
import { test, expect, fixture, root } from './fixtures';
import * as path from 'node:path';

test('picking a valid study file opens its welcome page', async ({ page, errors }) => {
  await page.goto('index.html');
  await expect(page.getByRole('heading', { level: 1, name: 'Juror' })).toBeVisible();
  await page
    .getByLabel('Choose a study file')
    .setInputFiles(path.join(root, 'assets/studies/financial-analysis.json'));
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Juror');
  await expect(page.getByText('Estimated time', { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test('picking a broken study file lists its problems', async ({ page }) => {
  await page.goto('index.html');
  await page.getByLabel('Choose a study file').setInputFiles(fixture('invalid/missing-output.json'));
  await expect(page.getByRole('heading', { level: 1, name: 'This study has 1 problem' })).toBeVisible();
  await expect(page.getByText('items[1].outputs', { exact: true })).toBeVisible();
});

test('typing a study address opens it', async ({ page }) => {
  await page.goto('index.html');
  await page.getByLabel('Or open a study by its address').fill('studies/pandalm.json');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page).toHaveURL(/study=studies%2Fpandalm\.json/);
  await expect(page.getByText('Pages to judge', { exact: true })).toBeVisible();
});
