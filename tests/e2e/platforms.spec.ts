// Intent: a crowd worker arrives from a recruitment platform's link (Prolific, MTurk, SONA).
// The link's slot keeps the balance, the platform's id is recorded, and MTurk's preview of a
// task not yet accepted shows the welcome page only. The completion code (or the failing code,
// after a failed attention check) appears only once the ratings file is saved.
import { test, expect, root } from './fixtures';
import { compiled } from './compile';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { completeStudy } from './session';

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

/** pandalm.json with a completion section (as a Prolific study would have), served in its place. */
async function withCompletion(page: import('@playwright/test').Page) {
  const study = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/pandalm.json'), 'utf8'));
  study.contact = 'The study team <team@example.org>';
  study.completion = {
    code: 'C1A2B3',
    redirect: 'https://app.prolific.com/submissions/complete?cc={code}&pid={pid}',
  };
  await page.route('**/studies/pandalm-prolific.json', (route) => route.fulfill({ body: compiled(study), contentType: 'application/json' }));
}

test('a Prolific participant gets the completion code and the way back only once the ratings file is saved', async ({ page, errors }) => {
  await withCompletion(page);
  await page.goto('index.html?study=studies/pandalm-prolific.json&slot=2&PROLIFIC_PID=5f0c1e2d3b4a59687766a1b2&STUDY_ID=S&SESSION_ID=X');
  await completeStudy(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you — you have finished');
  // Not before the file is safe.
  await expect(page.getByText('Once you have saved your ratings file, your completion code appears here.')).toBeVisible();
  await expect(page.getByText('C1A2B3')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Return to the study platform' })).toHaveCount(0);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  expect(file.suggestedFilename()).toMatch(/\.json$/);
  // The file records who and where from, for payment: the PID, Prolific's study and session.
  const ratings = JSON.parse(fs.readFileSync((await file.path())!, 'utf8'));
  expect(ratings.annotator).toEqual({
    slot: 2,
    id: '5f0c1e2d3b4a59687766a1b2',
    platform: { name: 'prolific', STUDY_ID: 'S', SESSION_ID: 'X' },
  });
  const end = page.getByRole('region', { name: 'Your completion code' });
  await expect(end.locator('code')).toHaveText('C1A2B3');
  await expect(end.getByRole('link', { name: 'Return to the study platform' })).toHaveAttribute(
    'href',
    'https://app.prolific.com/submissions/complete?cc=C1A2B3&pid=5f0c1e2d3b4a59687766a1b2',
  );
  // The e-mail way back names the file to attach, in the text and in the prepared message.
  const mail = page.getByRole('link', { name: 'team@example.org' });
  const href = decodeURIComponent((await mail.getAttribute('href'))!);
  expect(href).toMatch(/^mailto:team@example\.org\?subject=Ratings for /);
  expect(href).toContain(`Please find my ratings file attached: ${file.suggestedFilename()}`);
  expect(errors).toEqual([]);
});

test('a participant who fails the attention check gets the failing code, not the completion code', async ({ page, errors }) => {
  const study = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/pandalm.json'), 'utf8'));
  // An instructed-response check on the first item: choose the first system's response. A tie
  // is never a choice, so answering "Tie" everywhere fails it.
  study.design.attention_checks = [{ kind: 'preference', item: study.items[0].id, accept: [study.systems[0]] }];
  study.completion = {
    code: 'PASS1234',
    fail_code: 'FAIL9876',
    redirect: 'https://app.prolific.com/submissions/complete?cc={code}',
  };
  await page.route('**/studies/pandalm-checked.json', (route) => route.fulfill({ body: compiled(study), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/pandalm-checked.json&slot=1&PROLIFIC_PID=5f0c1e2d3b4a59687766a1b3&STUDY_ID=S&SESSION_ID=Y');
  await completeStudy(page, async () => {
    await page.getByRole('radio', { name: 'Tie (no preference)' }).check();
  });
  await expect(page.getByText('PASS1234')).toHaveCount(0);
  await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  const end = page.getByRole('region', { name: 'Your completion code' });
  await expect(end.locator('code')).toHaveText('FAIL9876');
  await expect(end.getByRole('link', { name: 'Return to the study platform' })).toHaveAttribute(
    'href',
    'https://app.prolific.com/submissions/complete?cc=FAIL9876',
  );
  await expect(page.getByText('PASS1234')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('an MTurk worker submits the assignment to MTurk once the ratings file is saved', async ({ page, errors }) => {
  // A build with JUROR_SUBMIT_ORIGINS="https://workersandbox.mturk.com" allows the form's target.
  await page.route(/\/index\.html\?/, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace("form-action 'self'", "form-action 'self' https://workersandbox.mturk.com");
    await route.fulfill({ response, body });
  });
  const posted: string[] = [];
  await page.route('https://workersandbox.mturk.com/mturk/externalSubmit', (route) => {
    posted.push(route.request().postData() ?? '');
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Submitted</h1>' });
  });
  await page.goto('index.html?study=studies/pandalm.json&assignmentId=3ASG&hitId=3HIT&workerId=A2W&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com');
  await completeStudy(page);
  const submit = page.getByRole('button', { name: 'Submit the task on Mechanical Turk' });
  await expect(submit).toHaveCount(0);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  const ratings = JSON.parse(fs.readFileSync((await file.path())!, 'utf8'));
  await submit.click();
  await expect(page.getByRole('heading', { name: 'Submitted' })).toBeVisible();
  expect(posted).toHaveLength(1);
  const form = new URLSearchParams(posted[0]);
  expect(form.get('assignmentId')).toBe('3ASG');
  expect(form.get('ratings_sha256')).toMatch(/^[0-9a-f]{64}$/);
  expect(ratings.annotator.id).toBe('a2w');
  expect(errors).toEqual([]);
});

test('an MTurk form the site\'s policy blocks is said plainly, with what to tell the requester', async ({ page, errors }) => {
  // A build without MTurk's hosts in JUROR_SUBMIT_ORIGINS: the policy's form-action is 'self'.
  const posted: string[] = [];
  await page.route('https://workersandbox.mturk.com/**', (route) => {
    posted.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Submitted</h1>' });
  });
  await page.goto('index.html?study=studies/pandalm.json&assignmentId=3ASG&hitId=3HIT&workerId=A2W&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com');
  await completeStudy(page);
  await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  // The blocked form never navigates: do not wait for it.
  await page.getByRole('button', { name: 'Submit the task on Mechanical Turk' }).click({ noWaitAfter: true });
  // After a form the browser blocked, Playwright's locators wait for a navigation that never
  // comes; the page itself is read by script instead, heading by heading.
  const fallback = () => page.evaluate(() => {
    const section = [...document.querySelectorAll('section')].find((s) =>
      s.querySelector('h2')?.textContent === 'Mechanical Turk did not receive the task');
    return section ? (section.textContent ?? '') : '';
  });
  await expect.poll(fallback).toContain('Assignment id3ASG');
  expect(await fallback()).toMatch(/Ratings file checksum[0-9a-f]{64}/);
  expect(await page.evaluate(() => document.title + (document.querySelector('h1')?.textContent ?? ''))).not.toContain('Submitted');
  expect(posted).toEqual([]);
  // The browser's own report of the blocked form is the one console error.
  expect(errors.filter((e) => !e.includes('Content Security Policy'))).toEqual([]);
});

test('a participant screened out by an intake answer is thanked and given the screened-out code at once', async ({ page, errors }) => {
  const study = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/pandalm.json'), 'utf8'));
  study.surveys = {
    intake: [{
      id: 'familiar',
      prompt: 'Are you familiar with large language models?',
      type: 'single_choice',
      options: ['Yes', 'No'],
      screen_out: ['No'],
    }],
    intake_minutes: 1,
    screened_message: 'Thank you. This study needs participants who know **large language models**.',
  };
  study.completion = {
    code: 'C1A2B3',
    screened_code: 'SCR00N',
    redirect: 'https://app.prolific.com/submissions/complete?cc={code}',
  };
  await page.route('**/studies/pandalm-screen.json', (route) => route.fulfill({ body: compiled(study), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/pandalm-screen.json&slot=1&PROLIFIC_PID=5f0c1e2d3b4a59687766a1b9');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.locator('.instructions .actions button.primary').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Before you start');
  await expect(page.getByText('About 1 minute.')).toBeVisible();
  await page.getByRole('radio', { name: 'No' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
  await expect(page.getByText('This study needs participants who know')).toBeVisible();
  await expect(page.getByText('SCR00N')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to the study platform' })).toHaveAttribute(
    'href', 'https://app.prolific.com/submissions/complete?cc=SCR00N');
  // Reopened, the page stays on the message: no trial is ever shown.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you');
  await expect(page.getByText('SCR00N')).toBeVisible();
  expect(errors).toEqual([]);
});
