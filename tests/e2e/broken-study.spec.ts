// Intent: a researcher (or an annotator with a bad link) opens a study that cannot be used and
// is told exactly what is wrong, never shown a blank page.
import * as fs from 'node:fs';
import { test, expect, fixture } from './fixtures';

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
