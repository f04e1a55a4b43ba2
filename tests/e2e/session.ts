// Page helpers for walking a study the way an annotator does: by role and accessible name.
import { expect, type Page } from '@playwright/test';

/** Opens a study for an annotator slot and waits for its welcome page. */
export async function openStudy(page: Page, file: string, slot = 1) {
  await page.goto(`index.html?study=studies/${file}&slot=${slot}`);
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
}

/** Answers every unanswered question on the page with its first option. */
export async function answerEverything(page: Page) {
  // What needs answering, in one round trip: the radio groups shown (with whether each is
  // answered and whether it is a best–worst trial's "Worst"), and which other kinds of control
  // the page has. Asking each group in turn took a third of a 49-trial walk.
  const has = await page.evaluate(() => {
    const count = (selector: string) => document.querySelectorAll(selector).length;
    const groups = [...document.querySelectorAll<HTMLElement>('[role="radiogroup"]')]
      .filter((g) => g.checkVisibility())
      .map((g) => ({
        answered: g.querySelector('input:checked') !== null,
        worst: g.getAttribute('aria-label') === 'Worst',
      }));
    return {
      groups,
      noErrors: count('input[type="checkbox"]'),
      sliders: count('main input[type="range"].untouched'),
      boxes: count('fieldset[role="group"] input[type="checkbox"]'),
      order: count('main button'),
      numbers: count('main input[type="number"]'),
      texts: count('main input[type="text"]:not(#study-address), main textarea'),
    };
  });
  // Radio groups (scales, single choices, preferences): the first point, unless answered.
  // A best–worst trial's "Worst" group: the last output, so that it differs from the best.
  const groups = page.getByRole('radiogroup');
  expect(await groups.count()).toBe(has.groups.length);
  for (const [i, group] of has.groups.entries()) {
    if (group.answered) continue;
    const radios = groups.nth(i).getByRole('radio');
    await (group.worst ? radios.last() : radios.first()).check();
  }
  // Outputs whose errors are marked: "No errors", where nothing is marked yet.
  if (has.noErrors) {
    for (const box of await page.getByRole('checkbox', { name: /^No errors/ }).all()) {
      if (!(await box.isChecked()) && (await box.isEnabled())) await box.check();
    }
  }
  // Sliders (scores of more than 11 points) not moved yet: the middle.
  if (has.sliders) {
    for (const slider of await page.locator('main input[type="range"].untouched').all()) {
      await slider.fill('50');
    }
  }
  // Check-box groups (multiple choice): tick as many as the hint or refusal asks, else one.
  if (has.boxes) {
    for (const group of await page.locator('fieldset[role="group"]:has(input[type="checkbox"])').all()) {
      const boxes = group.getByRole('checkbox');
      const want = Math.min(3, await boxes.count());
      for (let i = 0; i < want; i++) await boxes.nth(i).check();
    }
  }
  // Rank lists: accept the order shown.
  if (has.order) {
    for (const button of await page.getByRole('button', { name: 'This order is right' }).all()) {
      await button.click();
    }
  }
  if (has.numbers) {
    for (const box of await page.locator('main input[type="number"]').all()) {
      if (!(await box.inputValue())) await box.fill('3');
    }
  }
  if (has.texts) {
    for (const box of await page.locator('main input[type="text"]:not(#study-address), main textarea').all()) {
      if (!(await box.inputValue())) await box.fill('Fine.');
    }
  }
}

/**
 * From the welcome page to the finish page, answering everything. Returns the trials done.
 * `atTrial(n)` runs on each trial page (n from 1) before it is answered.
 */
export async function completeStudy(page: Page, atTrial?: (n: number) => Promise<void>): Promise<number> {
  await page.getByRole('button', { name: 'Start' }).click();
  return finishStudy(page, atTrial);
}

/** From wherever the study is (past the welcome page) to the finish page, answering everything. */
export async function finishStudy(page: Page, atTrial?: (n: number) => Promise<void>): Promise<number> {
  let trials = 0;
  for (let step = 0; step < 500; step++) {
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toBeVisible();
    const title = (await heading.first().textContent()) ?? '';
    if (title.startsWith('Thank you')) return trials;
    if (title === 'Consent') {
      await page.locator('.consent .actions button.primary').click();
    } else if (title === 'Instructions') {
      await page.locator('.instructions .actions button.primary').click();
    } else if (title === 'Before you start' || title === 'Last questions') {
      await answerEverything(page);
      await page.getByRole('button', { name: title === 'Last questions' ? 'Finish' : 'Continue' }).click();
    } else if (title.startsWith('Trial ')) {
      if (atTrial) await atTrial(trials + 1);
      await answerEverything(page);
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      // The next page has another heading: the next trial, the exit survey or the end.
      await expect(heading.first()).not.toHaveText(title);
      trials++;
    } else {
      throw new Error(`unexpected page "${title}"`);
    }
  }
  throw new Error('the study did not finish');
}
