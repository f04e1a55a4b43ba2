// Intent: an annotator on a phone (375 × 812, and a small 320 px one) sees what a refused Next
// asks for without scrolling, keeps most of the screen for the trial (a one-row header), reads a
// scale point's description without it covering another control, and reads rubric tables whose
// words never break in the middle, with the points in the trial's order.
import { test, expect } from './fixtures';
import { compiled } from './compile';
import type { Locator, Page } from '@playwright/test';

const phone = { width: 375, height: 812 };

/** Two cooking answers to compare: two scales with a description on every point, a preference
 * with a tie, and a worked example whose scores are given out of the rubric's order. */
const study = {
  format: 'juror.study/1',
  id: 'phone-kitchen',
  title: 'Kitchen questions on a phone',
  instructions: 'Rate each answer, then say which one you would rather get.',
  seed: 7,
  systems: ['small', 'big'],
  rubric: {
    dimensions: [
      {
        id: 'correct',
        label: 'Correctness',
        question: 'Would following this answer give a good result?',
        scale: {
          min: 1,
          max: 5,
          points: [
            { value: 1, label: 'Wrong', description: 'Would fail or is unsafe' },
            { value: 2, label: 'Mostly wrong', description: 'A key step or amount is wrong' },
            { value: 3, label: 'Partly right', description: 'Works, but with a noticeable mistake' },
            { value: 4, label: 'Mostly right', description: 'Works; a minor detail is off' },
            { value: 5, label: 'Right', description: 'Fully correct and safe' },
          ],
        },
      },
      {
        id: 'clarity',
        label: 'Clarity',
        question: 'How easy is the answer to follow?',
        scale: {
          min: 1,
          max: 3,
          points: [
            { value: 1, label: 'Confusing', description: 'I could not act on it' },
            { value: 2, label: 'Followable', description: 'I could act on it after re-reading' },
            { value: 3, label: 'Clear', description: 'I could act on it at once' },
          ],
        },
      },
    ],
    examples: [
      {
        title: 'Example: a correct but unclear answer',
        prompt: 'How do I stop pasta sticking together?',
        output: 'Water, lots, salt whatever, stir it sometimes early I guess.',
        scores: { clarity: 1, correct: 4 },
        why: 'The advice works, but it is hard to read.',
      },
    ],
  },
  design: {
    tasks: [
      {
        id: 'compare',
        title: 'Compare two answers',
        presentation: 'pairs',
        preference: { type: 'choice', question: 'Which answer would you rather get?', allow_tie: true },
        notes: 'optional',
      },
    ],
  },
  items: [
    {
      id: 'garlic',
      prompt: 'How do I peel a lot of garlic quickly?',
      outputs: {
        small: 'Microwave the whole head for five minutes.',
        big: 'Crush each clove lightly with the flat of a knife; the skin comes off easily.',
      },
    },
    {
      id: 'rice',
      prompt: 'What is the water-to-rice ratio for white rice?',
      outputs: { small: 'Use 1 cup rice to 2 cups water.', big: 'Most packets say 1:1.5 to 1:2.' },
    },
  ],
};

/** Opens the study at the screen size given and goes to its instructions. */
async function instructions(page: Page, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  const body = JSON.stringify(study);
  await page.route('**/studies/phone-kitchen.json', (route) => route.fulfill({ body: compiled(body), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/phone-kitchen.json&slot=1');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
}

/** Opens the study at the screen size given and goes to its first trial. */
async function firstTrial(page: Page, viewport: { width: number; height: number }) {
  await instructions(page, viewport);
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
}

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  expect(b, 'the element is laid out').not.toBeNull();
  return b as Box;
}

/** Fails unless the element is wholly on the screen (boxes are relative to the viewport). */
async function expectOnScreen(page: Page, locator: Locator, what: string) {
  const b = await box(locator);
  const { width, height } = page.viewportSize() ?? phone;
  expect(b.y, `${what}: its top is on the screen`).toBeGreaterThanOrEqual(0);
  expect(b.y + b.height, `${what}: its bottom is on the screen`).toBeLessThanOrEqual(height);
  expect(b.x, `${what}: its left is on the screen`).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width, `${what}: its right is on the screen`).toBeLessThanOrEqual(width);
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

for (const width of [375, 320]) {
  test(`at ${width} px a refused Next puts its message and the first missing answer on screen, each missing answer marked`, async ({ page, errors }) => {
    await firstTrial(page, { width, height: phone.height });
    // Output A's two scales answered, then Next: Output B's and the preference are missing.
    await page.getByRole('radiogroup', { name: 'Correctness — Output A' }).getByRole('radio', { name: '4 Mostly right' }).check();
    await page.getByRole('radiogroup', { name: 'Clarity — Output A' }).getByRole('radio', { name: '3 Clear' }).check();
    await page.getByRole('button', { name: 'Next', exact: true }).click();

    const first = page.getByRole('radiogroup', { name: 'Correctness — Output B' });
    await expect(first.getByRole('radio').first()).toBeFocused();
    // The message, in the header that stays at the top, and the focused question with its note.
    const message = page.getByText('3 answers are missing: each is marked “Answer needed”.');
    await expect(message).toBeVisible();
    await expectOnScreen(page, message, 'the missing-answers message');
    await expectOnScreen(page, first.getByText('Answer needed: choose a score'), 'the first missing answer’s note');
    await expectOnScreen(page, first.getByRole('radio').first(), 'the focused point');
    // The focused point's description says it is not chosen, so it does not read as an answer.
    const described = first.locator('.desc').first();
    await expect(described).toBeVisible();
    expect(await described.evaluate((d) => getComputedStyle(d, '::before').content)).toBe('"Not chosen: "');
    // The header does not hide the focused question.
    const header = await box(page.locator('header.trial-header'));
    expect((await box(first)).y).toBeGreaterThanOrEqual(header.y + header.height);

    // Each missing answer is marked, for screen readers too; the answered ones are not.
    for (const name of ['Correctness — Output B', 'Clarity — Output B']) {
      const group = page.getByRole('radiogroup', { name });
      await expect(group).toHaveAttribute('aria-invalid', 'true');
      await expect(group).toHaveAccessibleDescription('Answer needed: choose a score');
    }
    const preference = page.getByRole('radiogroup', { name: 'Which answer would you rather get?' });
    await expect(preference).toHaveAttribute('aria-invalid', 'true');
    await expect(preference.getByText(/^Answer needed: /)).toBeVisible();
    for (const name of ['Correctness — Output A', 'Clarity — Output A']) {
      await expect(page.getByRole('radiogroup', { name })).not.toHaveAttribute('aria-invalid', 'true');
    }
    // An answer given takes its mark away, and the count follows.
    await first.getByRole('radio', { name: '5 Right' }).check();
    await expect(first).not.toHaveAttribute('aria-invalid', 'true');
    await expect(first.getByText(/Answer needed/)).toHaveCount(0);
    await expect(page.getByText('2 answers are missing: each is marked “Answer needed”.')).toBeVisible();
    // The full list stays by the Next button, as on a wide screen.
    await expect(page.getByRole('alert').getByRole('heading', { name: '2 answers are missing' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test(`at ${width} px the trial's header is one row, at most 56 px high, with every tool by its name`, async ({ page, errors }) => {
    await firstTrial(page, { width, height: phone.height });
    const header = page.locator('header.trial-header');
    expect((await box(header)).height, 'the header’s height').toBeLessThanOrEqual(56);
    // Progress as "1/2" with a thin bar; the full sentence is what a screen reader reads.
    await expect(header.getByText('1/2', { exact: true })).toBeVisible();
    await expect(header.getByRole('progressbar', { name: 'Trials done' })).toBeVisible();
    const tools = [
      ['Rubric', 'R'],
      ['All trials', 'L'],
      ['Shortcuts', '?'],
      ['Save a backup', null],
    ] as const;
    let row: number | null = null;
    for (const [name, key] of tools) {
      const button = header.getByRole('button', { name, exact: true });
      await expect(button).toBeVisible();
      if (key) await expect(button).toHaveAttribute('aria-keyshortcuts', key);
      const b = await box(button);
      expect(b.x + b.width, `${name} fits the screen`).toBeLessThanOrEqual(width);
      row ??= b.y;
      expect(Math.abs(b.y - row), `${name} is on the header's one row`).toBeLessThan(2);
    }
    // The short labels still open what they name.
    await header.getByRole('button', { name: 'All trials', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'All trials' })).toBeVisible();
    expect(errors).toEqual([]);
  });
}

for (const viewport of [phone, { width: 1280, height: 800 }]) {
  test(`at ${viewport.width} px a scale point's description shows under its scale and covers no control`, async ({ page, errors }) => {
    await firstTrial(page, viewport);
    const correctness = page.getByRole('radiogroup', { name: 'Correctness — Output A' });
    const wrong = correctness.getByRole('radio', { name: '1 Wrong' });
    await expect(wrong).toHaveAccessibleDescription('Would fail or is unsafe');
    await wrong.focus();
    const description = correctness.getByText('Would fail or is unsafe');
    await expect(description).toBeVisible();
    const d = await box(description);
    // Nothing of the scale's points, nor the next question, under it.
    for (const point of await correctness.locator('label').all()) {
      expect(overlap(d, await box(point)), `the description covers "${await point.textContent()}"`).toBe(false);
    }
    const clarity = page.getByRole('radiogroup', { name: 'Clarity — Output A' });
    expect(overlap(d, await box(clarity)), 'the description covers the Clarity question').toBe(false);
    expect(d.y, 'the description is under the points').toBeGreaterThan((await box(correctness.locator('label').last())).y);
    // One description at a time: the hovered point's, then the chosen one's when the pointer leaves.
    await correctness.getByText('Mostly right').hover();
    await expect(correctness.getByText('Works; a minor detail is off')).toBeVisible();
    await expect(description).toBeHidden();
    await correctness.getByRole('radio', { name: '3 Partly right' }).check();
    await page.mouse.move(0, 0);
    await page.getByRole('heading', { level: 1 }).focus();
    await expect(correctness.getByText('Works, but with a noticeable mistake')).toBeVisible();
    await expect(correctness.getByText('Works; a minor detail is off')).toBeHidden();
    expect(errors).toEqual([]);
  });
}

/** The words of the rubric tables' cells that the layout breaks across two lines. */
async function brokenWords(tables: Locator): Promise<string[]> {
  return tables.evaluateAll((els) => {
    const broken: string[] = [];
    for (const cell of els.flatMap((t) => Array.from(t.querySelectorAll('th, td')))) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        // Words, and the parts of hyphenated ones ("re-reading" may break after its hyphen).
        for (const m of text.matchAll(/[^\s-]+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index ?? 0);
          range.setEnd(node, (m.index ?? 0) + m[0].length);
          // A word on one line has one box; a word broken across lines has one per line.
          if (range.getClientRects().length > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  });
}

for (const viewport of [{ width: 320, height: 640 }, phone, { width: 1280, height: 800 }]) {
  test(`at ${viewport.width} px the rubric tables break no word and list the points as the trial does`, async ({ page, errors }) => {
    await instructions(page, viewport);
    const tables = page.getByRole('table');
    await expect(tables).toHaveCount(2);
    expect(await brokenWords(tables)).toEqual([]);
    await expect(tables.first().getByRole('rowheader')).toHaveText(['1', '2', '3', '4', '5']);
    await expect(tables.nth(1).getByRole('rowheader')).toHaveText(['1', '2', '3']);
    await expect(tables.nth(1).getByRole('cell')).toContainText(['Confusing', 'I could not act on it', 'Followable']);
    // The same tables in the Rubric window of a trial.
    await page.getByRole('button', { name: 'Begin' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog', { name: 'Rubric' });
    await expect(dialog.getByRole('table')).toHaveCount(2);
    expect(await brokenWords(dialog.getByRole('table'))).toEqual([]);
    await expect(dialog.getByRole('table').first().getByRole('rowheader')).toHaveText(['1', '2', '3', '4', '5']);
    expect(errors).toEqual([]);
  });
}

test('the worked example labels its prompt and output and gives its scores in the rubric’s order', async ({ page, errors }) => {
  await instructions(page, phone);
  const example = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Example: a correct but unclear answer' }) });
  await expect(example.getByRole('heading', { name: 'Prompt', exact: true })).toBeVisible();
  await expect(example.getByRole('heading', { name: 'Output', exact: true })).toBeVisible();
  // Each label sits above its own text.
  const promptText = example.getByText('How do I stop pasta sticking together?');
  const outputText = example.getByText('Water, lots, salt whatever');
  expect((await box(example.getByRole('heading', { name: 'Prompt', exact: true }))).y).toBeLessThan((await box(promptText)).y);
  expect((await box(promptText)).y).toBeLessThan((await box(example.getByRole('heading', { name: 'Output', exact: true }))).y);
  expect((await box(example.getByRole('heading', { name: 'Output', exact: true }))).y).toBeLessThan((await box(outputText)).y);
  await expect(example.getByText('Scores: Correctness: 4 (Mostly right), Clarity: 1 (Confusing)', { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});
