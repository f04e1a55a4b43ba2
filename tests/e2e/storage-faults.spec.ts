// Intent: whatever goes wrong with the browser's storage, the annotator is told in plain words,
// is offered a file that keeps their answers, and nothing already saved is destroyed.
import { test, expect } from './fixtures';
import { compiled } from './compile';
import { answerEverything, completeStudy, openStudy } from './session';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Download, Page } from '@playwright/test';

const studies = path.resolve(__dirname, '../../assets/studies');

/** The storage key of a study file and slot: `juror/v1/<sha256 of the file's bytes>/<slot>`. */
function storageKey(file: string, slot: number, bytes = fs.readFileSync(path.join(studies, file))): string {
  return `juror/v1/${createHash('sha256').update(bytes).digest('hex')}/${slot}`;
}

async function downloaded(download: Download): Promise<string> {
  const file = await download.path();
  return fs.readFileSync(file, 'utf8');
}

/** JSON with object keys sorted and no whitespace, as serde_json writes a `Value`. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Parses a ratings file and checks its format and checksum, as `ratings::parse` does. */
function ratingsFile(text: string) {
  const file = JSON.parse(text);
  expect(file.format).toBe('juror.ratings/1');
  const { sha256, ...rest } = file;
  expect(sha256).toBe(createHash('sha256').update(canonical(rest)).digest('hex'));
  return file;
}

function readStorage(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

function storageKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(localStorage));
}

/** Puts `text` under `key` in this origin's storage before the study is opened. */
async function seed(page: Page, key: string, text: string) {
  await page.goto('index.html');
  // Let the app finish loading first, so that leaving the page does not cut its start short.
  await expect(page.getByRole('heading', { level: 1, name: 'Juror' })).toBeVisible();
  await page.evaluate(([k, t]) => localStorage.setItem(k, t), [key, text]);
}

/** Fills this origin's localStorage to the last character, under keys of its own. */
async function fillStorage(page: Page): Promise<number> {
  return page.evaluate(() => {
    let written = 0;
    let n = 0;
    for (let size = 1 << 20; size >= 1; size = Math.floor(size / 4)) {
      const chunk = 'x'.repeat(size);
      for (;;) {
        try {
          localStorage.setItem(`filler/${n}`, chunk);
          n++;
          written += size;
        } catch {
          break;
        }
      }
    }
    return written;
  });
}

test('when storage is full, the annotator is warned and can download every answer', async ({ page, errors }) => {
  await openStudy(page, 'reasoning-trajectories.json', 3);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Trial 1');
  await answerEverything(page);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(heading).toHaveText('Trial 2');
  const key = storageKey('reasoning-trajectories.json', 3);
  const before = await readStorage(page, key);
  expect(JSON.parse(before!).progress.trials[0].done).toBe(true);

  expect(await fillStorage(page)).toBeGreaterThan(1_000_000);
  const alert = page.getByRole('alert');
  await expect(alert).toHaveCount(0);
  await page.getByRole('radiogroup', { name: 'Correctness — Trajectory B' }).getByRole('radio', { name: '2 Mostly wrong' }).check();
  await expect(alert).toContainText('Your last answer could not be saved in this browser');
  await expect(alert).toContainText('Download a backup');

  const [backup] = await Promise.all([page.waitForEvent('download'), alert.getByRole('button', { name: 'Download a backup' }).click()]);
  const file = ratingsFile(await downloaded(backup));
  expect(file.study.id).toBe('pixelis-reasoning-trajectories');
  expect(file.annotator.slot).toBe(3);
  expect(file.current_trial).toBe(1);
  expect(file.trials[0].done).toBe(true);
  const b = file.trials[1].outputs.find((o: { label: string }) => o.label === 'Trajectory B');
  expect(b.ratings).toEqual({ correctness: 2 });

  // What was saved before the storage filled up is still there, unchanged.
  expect(await readStorage(page, key)).toBe(before);
  // The page keeps working in memory.
  await expect(page.getByRole('radiogroup', { name: 'Correctness — Trajectory B' }).getByRole('radio', { name: '2 Mostly wrong' })).toBeChecked();
  expect(errors).toEqual([]);
});

for (const [kind, text, reason] of [
  ['damaged', '{not json', 'they are damaged'],
  [
    'from a newer version of Juror',
    JSON.stringify({ schema_version: 99, study_id: 'pandalm', saved_at: 1, progress: { whatever: true } }),
    'they were saved by a newer version of Juror (format 99)',
  ],
]) {
  test(`saved answers ${kind} are set aside, offered for download, and the study starts afresh`, async ({ page, errors }) => {
    const key = storageKey('pandalm.json', 2);
    await seed(page, key, text);
    await openStudy(page, 'pandalm.json', 2);

    const notice = page.getByRole('status').filter({ hasText: 'could not be read' });
    await expect(notice).toContainText(`Your saved answers for this study could not be read (${reason}).`);
    await expect(notice).toContainText('They were set aside, not deleted');
    const [earlier] = await Promise.all([
      page.waitForEvent('download'),
      notice.getByRole('button', { name: 'Download the earlier answers' }).click(),
    ]);
    expect(await downloaded(earlier)).toBe(text);

    // The raw text sits under a quarantine key; the study's own key no longer holds it.
    const keys = await storageKeys(page);
    const aside = keys.filter((k) => k.startsWith('juror-quarantine/'));
    expect(aside).toHaveLength(1);
    expect(aside[0].endsWith(`/${key}`)).toBe(true);
    expect(await readStorage(page, aside[0])).toBe(text);
    expect(await readStorage(page, key)).toBeNull();

    // The app works from the start.
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Begin' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
    await expect(page.getByText(/^Trial 1 of \d+ · 0 done/)).toBeVisible();
    await answerEverything(page);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
    expect(JSON.parse((await readStorage(page, key))!).progress.trials[0].done).toBe(true);
    // The notice was said once: a reload resumes quietly, and the set-aside text stays.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
    await expect(page.getByRole('status').filter({ hasText: 'could not be read' })).toHaveCount(0);
    expect(await readStorage(page, aside[0])).toBe(text);
    expect(errors).toEqual([]);
  });
}

test('damaged answers are kept even when storage is too full to set them aside', async ({ page, errors }) => {
  // When storage is too full to copy them aside, Juror holds every save (new answers stay in
  // the tab) until the annotator has downloaded the damaged answers.
  const key = storageKey('pandalm.json', 5);
  // A large envelope cut short (a crash mid-write, a disk error): 56 kB that do not parse.
  const damaged = '{"schema_version":2,"study_id":"pandalm-bloom-llama","progress":{"trials":[' + '{"notes":"lots of answers"},'.repeat(2000);
  await seed(page, key, damaged);
  await fillStorage(page);
  await openStudy(page, 'pandalm.json', 5);
  await expect(page.getByRole('status').filter({ hasText: 'could not be read' })).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  const keys = await storageKeys(page);
  const kept = await page.evaluate(
    ([ks, text]) => (ks as string[]).some((k) => localStorage.getItem(k) === text),
    [keys, damaged] as const,
  );
  expect(kept).toBe(true);
  expect(errors).toEqual([]);
});

test('answers saved for an earlier version of the study file are kept apart and offered for download', async ({ page, errors }) => {
  const file = 'financial-analysis.json';
  const original = fs.readFileSync(path.join(studies, file));
  const study = JSON.parse(original.toString('utf8'));
  study.description = `${study.description}\n\nVersion A, before the researcher fixed a typo.`;
  const versionA = Buffer.from(JSON.stringify(study, null, 2));
  const keyA = storageKey(file, 1, versionA);
  const keyB = storageKey(file, 1, original);
  expect(keyA).not.toBe(keyB);

  // Version A is served for a while; the annotator does two trials and half of the third.
  await page.route(`**/studies/${file}`, (route) => route.fulfill({ body: compiled(versionA), contentType: 'application/json' }));
  await openStudy(page, file, 1);
  await expect(page.getByText('Version A, before the researcher fixed a typo.')).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  const heading = page.getByRole('heading', { level: 1 });
  for (const n of [1, 2]) {
    await expect(heading).toHaveText(`Trial ${n}`);
    await answerEverything(page);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
  }
  await expect(heading).toHaveText('Trial 3');
  await page.getByRole('textbox', { name: 'Notes' }).fill('Said under version A.');

  // Version B (the file as shipped) replaces it.
  await page.unroute(`**/studies/${file}`);
  await openStudy(page, file, 1);
  // Version A's answers, as saved when its page was left.
  const storedA = await readStorage(page, keyA);
  const progressA = JSON.parse(storedA!).progress;
  expect(progressA.trials.map((t: { done?: boolean }) => Boolean(t.done)).slice(0, 3)).toEqual([true, true, false]);
  expect(progressA.trials[2].notes).toBe('Said under version A.');
  await expect(page.getByText('Version A, before the researcher fixed a typo.')).toHaveCount(0);
  const notice = page.getByRole('status').filter({ hasText: 'The study file has changed since you started.' });
  await expect(notice).toBeVisible();
  const [earlier] = await Promise.all([
    page.waitForEvent('download'),
    notice.getByRole('button', { name: 'Download the earlier answers' }).click(),
  ]);
  expect(await downloaded(earlier)).toBe(storedA);

  // Version B starts afresh: nothing of version A's answers is mixed in.
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(heading).toHaveText('Trial 1');
  await expect(page.getByText(/^Trial 1 of \d+ · 0 done/)).toBeVisible();
  await expect(page.locator('main input:checked')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('');
  const storedB = JSON.parse((await readStorage(page, keyB))!);
  // Storage leaves out what was not given (an untouched trial is {"outputs":[{},{}]}).
  expect(storedB.progress.trials.every((t: { done?: boolean; notes?: string }) => !t.done && !t.notes)).toBe(true);
  // Version A's answers are still stored, byte for byte.
  expect(await readStorage(page, keyA)).toBe(storedA);
  expect(errors).toEqual([]);
});

test('without storage (private mode, storage disabled) the study is done in memory and the ratings downloaded', async ({ page, errors }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('The user denied access to storage.', 'SecurityError');
      },
    });
  });
  await openStudy(page, 'pandalm.json', 3);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('This browser does not allow Juror to save answers');
  await expect(alert.getByRole('button', { name: 'Download a backup' })).toBeVisible();

  const trials = await completeStudy(page);
  expect(trials).toBeGreaterThan(0);
  // Still warned at the end: closing the tab loses everything not downloaded.
  await expect(alert).toContainText('This browser does not allow Juror to save answers');
  const [ratings] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  const file = ratingsFile(await downloaded(ratings));
  expect(file.complete).toBe(true);
  expect(file.trials).toHaveLength(trials);
  expect(file.trials.every((t: { done: boolean }) => t.done)).toBe(true);
  // The backup from the banner holds the same answers.
  const [backup] = await Promise.all([page.waitForEvent('download'), alert.getByRole('button', { name: 'Download a backup' }).click()]);
  expect(ratingsFile(await downloaded(backup)).trials).toEqual(file.trials);
  expect(errors).toEqual([]);
});
