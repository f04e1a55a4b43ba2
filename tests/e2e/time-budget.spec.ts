// Intent: a researcher says how long each task takes; the annotator sees the study's total on
// the welcome page and each task's time with the task.
import { test, expect, root } from './fixtures';
import { compiled } from './compile';
import * as fs from 'node:fs';
import * as path from 'node:path';

test('task estimates add up on the welcome page and show with the task', async ({ page, errors }) => {
  const study = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/pandalm.json'), 'utf8'));
  delete study.estimated_minutes;
  study.design.tasks[0].estimated_minutes = 25;
  await page.route('**/studies/pandalm-timed.json', (route) => route.fulfill({ body: compiled(study), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/pandalm-timed.json&slot=1');
  const estimate = page.locator('.facts div').filter({ hasText: 'Estimated time' });
  await expect(estimate.locator('dd')).toHaveText('25 minutes');
  await page.getByRole('button', { name: 'Start' }).click();
  while ((await page.getByRole('heading', { level: 1 }).textContent()) !== 'Trial 1') {
    await page.locator('main .actions button.primary').first().click();
  }
  await expect(page.locator('.task-intro summary')).toContainText('about 25 minutes');
  expect(errors).toEqual([]);
});
