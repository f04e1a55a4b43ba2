// Intent: a study published the README's way (`juror publish`) can be completed, backed up and
// downloaded by an annotator who learns nothing about which system wrote what: no system id in
// the study served, the backup, the final ratings file, localStorage or the page's caches, and
// no output token shared by two items (so no system can be followed from item to item). The
// researcher's `juror analyze --key` turns the file back into systems and scores the attention
// checks the annotator never saw marked.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, exampleStudies, root } from './fixtures';
import { completeStudy } from './session';
import { juror, publishStudy } from './analysis-helpers';

/**
 * Publishes one example into dist/e2e-published/<name>/studies/ (served with the app). A study
 * with items `for` annotator ids is published for those ids (`--annotators`), as it must be.
 */
function publish(file: string, dir: string): { url: string; keyPath: string; studyPath: string; systems: string[] } {
  const name = file.replace(/\.json$/, '');
  const original = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies', file), 'utf8'));
  const ids = [
    ...new Set<string>(original.items.flatMap((i: { for?: (string | number)[] }) => (i.for ?? []).filter((a) => typeof a === 'string') as string[]),
    ),
  ];
  // The HARE study's id names its system "hare", which sealing cannot hide: allowed here, and the
  // checks below look for system ids where they would be ids (as JSON strings).
  const args = ['--allow-named'];
  if (ids.length > 0) {
    fs.mkdirSync(dir, { recursive: true });
    const list = path.join(dir, 'annotators.txt');
    fs.writeFileSync(list, ids.join('\n') + '\n');
    args.push('--annotators', list);
  }
  const published = publishStudy(path.join(root, 'assets/studies', file), name, args);
  return { ...published, url: `${published.url}&slot=1`, systems: original.systems };
}

/** Every cache entry the page can read, as "URL body" lines. */
async function cached(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const response = await cache.match(request);
        out.push(`${request.url} ${response ? await response.text() : ''}`);
      }
    }
    return out.join('\n');
  });
}

async function download(page: Page, name: string, saveAs: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name, exact: true }).click()]);
  await file.saveAs(saveAs);
  return fs.readFileSync(saveAs, 'utf8');
}

/** Each output token of a ratings file, with the items it appears in. */
function tokenItems(ratings: { trials: { item: string; outputs: { system: string }[] }[] }): Map<string, Set<string>> {
  const items = new Map<string, Set<string>>();
  for (const trial of ratings.trials) {
    for (const output of trial.outputs) {
      if (!items.has(output.system)) items.set(output.system, new Set());
      items.get(output.system)!.add(trial.item);
    }
  }
  return items;
}

for (const example of exampleStudies()) {
  test(`${example.file} published: nothing the annotator gets names or links a system`, async ({ page, errors }, testInfo) => {
    test.setTimeout(180_000);
    const published = publish(example.file, testInfo.outputPath());
    const named = (text: string) => published.systems.filter((s) => text.includes(JSON.stringify(s)));

    const served = fs.readFileSync(published.studyPath, 'utf8');
    expect(named(served)).toEqual([]);
    // Served compiled (as a site's build serves it): its attention checks are in the key only.
    const servedStudy = JSON.parse(served);
    expect(servedStudy.format).toBe('juror.compiled/3');
    expect(servedStudy.study.design.attention_checks ?? []).toEqual([]);

    await page.goto(published.url);
    await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();

    // A backup at the first trial, then the whole study, then the final file.
    let backup = '';
    const trials = await completeStudy(page, async (n) => {
      if (n === 1) backup = await download(page, 'Save a backup', testInfo.outputPath('backup.json'));
    });
    expect(trials).toBeGreaterThan(0);
    expect(backup).not.toBe('');
    expect(named(backup)).toEqual([]);
    const final = await download(page, 'Download ratings (JSON)', testInfo.outputPath('final.json'));
    expect(named(final)).toEqual([]);

    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(named(storage)).toEqual([]);
    expect(named(await cached(page))).toEqual([]);

    // No output token appears on two items, in the backup or in the final file.
    for (const file of [JSON.parse(backup), JSON.parse(final)]) {
      for (const [token, items] of tokenItems(file)) {
        expect({ token, items: items.size }).toEqual({ token, items: 1 });
      }
      expect(file.trials.every((t: { check: boolean }) => !t.check)).toBe(true);
    }

    // The researcher, with the key, gets the systems back, and the checks scored.
    const finalPath = testInfo.outputPath('final.json');
    const report = JSON.parse(
      execFileSync(juror, ['analyze', '--study', published.studyPath, '--key', published.keyPath, '--resamples', '20', finalPath], {
        encoding: 'utf8',
      }),
    );
    expect(report.problems).toEqual([]);
    const systems = new Set<string>();
    for (const d of report.dimensions) for (const s of d.systems) systems.add(s.system);
    for (const s of report.preferences?.systems ?? []) systems.add(s);
    for (const s of report.choices?.best_worst?.systems ?? []) systems.add(s.system);
    expect([...systems].every((s) => published.systems.includes(s))).toBe(true);
    expect(systems.size).toBeGreaterThan(0);
    const key = JSON.parse(fs.readFileSync(published.keyPath, 'utf8'));
    if ((key.attention_checks ?? []).length > 0) {
      // Found by the key, and scored where the trial shows the checked output.
      const checks = report.diagnostics.annotators[0].attention_checks;
      expect(checks.trials).toBeGreaterThan(0);
      expect(checks.passed + checks.failed).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
  });
}
