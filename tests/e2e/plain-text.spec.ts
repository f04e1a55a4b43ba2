// Intent: a study that asks raters to judge content and ignore formatting (a task's
// `plain_text`) shows each output exactly as written: its Markdown is not rendered, its
// whitespace is kept.
import { test, expect } from './fixtures';
import { compiled } from './compile';

const study = {
  format: 'juror.study/1',
  id: 'plain-answers',
  title: 'Judge the content, not the formatting',
  instructions: 'Rate how correct each answer is.',
  seed: 2,
  systems: ['fancy', 'plain'],
  rubric: {
    dimensions: [
      {
        id: 'correct',
        label: 'Correctness',
        question: 'Is the answer correct?',
        scale: { min: 1, max: 3, points: [{ value: 1, label: 'No' }, { value: 2, label: 'Partly' }, { value: 3, label: 'Yes' }] },
      },
    ],
  },
  design: { tasks: [{ id: 'rate', presentation: 'side_by_side', plain_text: true }] },
  items: [
    {
      id: 'boil',
      prompt: 'At what temperature does water boil at sea level?',
      outputs: { fancy: '# Answer\n\n**100 °C**  (212 °F)', plain: '100 degrees Celsius.' },
    },
  ],
};

test('a plain-text task shows the outputs as written, Markdown unrendered and spaces kept', async ({ page, errors }) => {
  const body = JSON.stringify(study);
  await page.route('**/studies/plain-answers.json', (route) => route.fulfill({ body: compiled(body), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/plain-answers.json&slot=1');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  const fancy = page.locator('.output-text.plain-text').filter({ hasText: '# Answer' });
  await expect(fancy).toHaveCount(1);
  expect(await fancy.textContent()).toBe('# Answer\n\n**100 °C**  (212 °F)');
  await expect(fancy.locator('h1, h2, h3, strong')).toHaveCount(0);
  await expect(page.locator('.output-text.plain-text').filter({ hasText: '100 degrees Celsius.' })).toBeVisible();
  expect(errors).toEqual([]);
});
