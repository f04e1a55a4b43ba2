// Intent: an annotator follows a link to a study and sees its welcome page.
import { test, expect, exampleStudies } from './fixtures';

const studies = exampleStudies();

test('there are example studies to open', () => {
  expect(studies.length).toBeGreaterThanOrEqual(6);
});

for (const study of studies) {
  test(`opens ${study.file} by its address and shows the welcome page`, async ({ page, errors }) => {
    await page.goto(`index.html?study=studies/${study.file}`);
    await expect(page.getByRole('heading', { level: 1, name: study.title })).toBeVisible();
    // In the annotator's words: pages to judge (never "trials" or "items"), and the study's time.
    const pages = page.locator('.facts div', { has: page.getByText('Pages to judge', { exact: true }) });
    await expect(pages.locator('dd')).toHaveText(/^[1-9][0-9]*$/);
    await expect(page.getByText('Trials', { exact: true })).toHaveCount(0);
    await expect(page.getByText('Estimated time', { exact: true })).toBeVisible();
    expect(errors).toEqual([]);
  });
}
