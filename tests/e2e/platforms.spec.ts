// Intent: a crowd worker arrives from a recruitment platform's link (Prolific, MTurk, SONA).
// The link's slot keeps the balance, the platform's id is recorded, and MTurk's preview of a
// task not yet accepted shows the welcome page only.
import { test, expect } from './fixtures';

const jurorKeys = (page: import('@playwright/test').Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror/')));

test('an MTurk preview shows the welcome page only and records nothing', async ({ page, errors }) => {
  await page.goto('index.html?study=studies/pandalm.json&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=3HIT');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'This is a preview. Accept the task on Mechanical Turk to start' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start' })).toHaveCount(0);
  await expect(page.getByLabel('Your participant code')).toHaveCount(0);
  expect(await jurorKeys(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test('platform ids from MTurk, Prolific and SONA links name the annotator; a slot in the link is kept', async ({ page, errors }) => {
  // MTurk, once accepted: workerId names the annotator (its slot from the id).
  await page.goto('index.html?study=studies/pandalm.json&assignmentId=3ASG&hitId=3HIT&workerId=A2WORKER&turkSubmitTo=https%3A%2F%2Fwww.mturk.com');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect.poll(() => jurorKeys(page)).toEqual([expect.stringMatching(/^juror\/v1\/[0-9a-f]{64}\/\d+\/a2worker$/)]);
  // Prolific, from `juror links --platform prolific`: slot 2 with the participant's PID.
  await page.goto('index.html?study=studies/pandalm.json&slot=2&PROLIFIC_PID=5f0c1e2d3b4a59687766a1b2&STUDY_ID=S&SESSION_ID=X');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect.poll(async () => (await jurorKeys(page)).filter((k) => k.endsWith('/2/5f0c1e2d3b4a59687766a1b2'))).toHaveLength(1);
  // SONA: `id` from %SURVEY_CODE%.
  await page.goto('index.html?study=studies/pandalm.json&slot=3&id=81234');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect.poll(async () => (await jurorKeys(page)).filter((k) => k.endsWith('/3/81234'))).toHaveLength(1);
  expect(errors).toEqual([]);
});
