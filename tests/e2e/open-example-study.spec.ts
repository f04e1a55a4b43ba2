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
    const items = page.locator('.facts div', { has: page.getByText('Items', { exact: true }) });
    await expect(items.locator('dd')).toHaveText(String(study.items));
    await expect(page.getByText('Trials', { exact: true })).toBeVisible();
    expect(errors).toEqual([]);
  });
}
