import { test as base, expect } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const root = path.resolve(__dirname, '../..');

/** The example studies shipped in dist/studies/, with what their welcome page must show. */
/** Each bundled example: its file, title, number of items, and whether it has a rubric to show
 * (a study that asks only for preferences has none, and no Rubric button). */
export function exampleStudies(): { file: string; title: string; items: number; rubric: boolean }[] {
  const dir = path.join(root, 'assets/studies');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const study = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      const r = study.rubric ?? {};
      const rubric = ['dimensions', 'examples', 'look_for', 'avoid'].some((k) => (r[k] ?? []).length > 0);
      return { file, title: study.title, items: study.items.length, rubric };
    });
}

export function fixture(name: string): string {
  return path.join(root, 'crates/juror-core/tests/fixtures', name);
}

/** A page that fails the test on any uncaught error or console error (a wasm panic shows as one). */
export const test = base.extend<{ errors: string[] }>({
  errors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()}`);
      });
      await use(errors);
    },
    { auto: true },
  ],
});

export { expect };
