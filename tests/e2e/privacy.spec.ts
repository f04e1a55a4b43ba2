// Intent: nothing an annotator does leaves the site they opened: no request to another origin,
// with or without the service worker; and the page runs under a Content-Security-Policy that
// lets only the app's own files run.
import { test, expect, root } from './fixtures';
import { completeStudy, openStudy } from './session';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Page, Request } from '@playwright/test';

/** Every request the page and the context (service worker included) make. */
function recordRequests(page: Page, context: BrowserContext): string[] {
  const urls: string[] = [];
  const record = (r: Request) => urls.push(r.url());
  page.on('request', record);
  context.on('request', record);
  return urls;
}

async function fullStudy(page: Page, context: BrowserContext, baseURL: string | undefined) {
  const origin = new URL(baseURL!).origin;
  const urls = recordRequests(page, context);
  await openStudy(page, 'pandalm.json', 2);
  const trials = await completeStudy(page);
  expect(trials).toBeGreaterThan(0);
  const [ratings] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  expect(ratings.suggestedFilename()).toMatch(/\.json$/);
  // Something was recorded: the page, the app, the study.
  expect(urls.some((u) => u.endsWith('/juror/studies/pandalm.json'))).toBe(true);
  // Downloads are made in the page (blob: or data: addresses) and never touch the network.
  const network = urls.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:'));
  expect(network.filter((u) => new URL(u).origin !== origin)).toEqual([]);
  return urls;
}

/** Collects `securitypolicyviolation` events from the first script of every document. */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    (window as unknown as { __csp: string[] }).__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

test.describe('no request leaves the origin', () => {
  test('during a whole study', async ({ page, context, baseURL, errors }) => {
    await fullStudy(page, context, baseURL);
    expect(errors).toEqual([]);
  });

  test.describe('with the service worker running', () => {
    test.use({ serviceWorkers: 'allow' });
    test('during a whole study', async ({ page, context, baseURL, errors }) => {
      const urls = await fullStudy(page, context, baseURL);
      // The worker did run, and its own requests (sw.js, the precache) were recorded too.
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      expect(urls.some((u) => u.endsWith('/juror/sw.js'))).toBe(true);
      expect(errors).toEqual([]);
    });
  });
});

test.describe('Content-Security-Policy', () => {
  test('index.html sets a strict policy from its first script, before it asks for the study, with the start-up script\'s hash', async ({ page, request, errors }) => {
    const html = await (await request.get('index.html')).text();
    // The policy is set by the page's first script, before anything else in <head> but the
    // character set and the wasm's preloads: no other script, stylesheet, icon or manifest
    // comes before it. (Not a meta tag in the HTML: that turns off Chrome's preload scanner.)
    expect(html).not.toContain('<meta http-equiv="Content-Security-Policy"');
    const classic = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    const written = classic[0].match(/httpEquiv: "Content-Security-Policy",\s*content: "([^"]*)"/);
    expect(written).not.toBeNull();
    const head = html.slice(0, html.indexOf('<script>'));
    expect(head.replace(/<link rel="(?:modulepreload|preload)"[^>]*>/g, '')).not.toMatch(/<(script|link|style)\b/);
    // The browser holds it, first in <head>, and it is in force: nothing breaks it on the way.
    await watchViolations(page);
    await openStudy(page, 'pandalm.json', 1);
    const held = await page.evaluate(() => {
      const first = document.head.firstElementChild as HTMLMetaElement;
      return first.httpEquiv === 'Content-Security-Policy' ? first.content : null;
    });
    expect(held).toBe(written![1]);
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
    const directives = new Map(
      written![1].split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values] as [string, string[]];
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    const script = directives.get('script-src')!;
    expect(script).toContain("'self'");
    expect(script).toContain("'wasm-unsafe-eval'");
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toContain("'unsafe-eval'");
    const hashes = script.filter((s) => /^'sha256-[A-Za-z0-9+/]{43}='$/.test(s));
    // The one hash is that of the one inline script that runs under the policy, byte for byte:
    // the wasm's start-up. The classic script sets the policy and only then asks for the study
    // (held to the policy's connect-src).
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const start = html.match(/<script type="module">([\s\S]*?)<\/script>/);
    expect(classic).toHaveLength(1);
    expect(classic[0].indexOf('document.head.prepend')).toBeLessThan(classic[0].indexOf('fetch(url)'));
    expect(hashes).toEqual([sha(start![1])]);
    // Nothing may be fetched from elsewhere.
    for (const [name, values] of directives) {
      for (const v of values) expect(v, `${name} ${v}`).not.toMatch(/^(https?:|\*|'unsafe-inline')/);
    }
  });

  test('the not-found page, the analysis page and the app each carry a policy and send no referrer', async ({ page, request, errors }) => {
    // Every page, 404.html included, carries the policy and a referrer policy.
    for (const file of ['index.html', 'analyse.html', '404.html']) {
      const html = await (await request.get(file)).text();
      // index.html's is set by its first script (the test above).
      const policy = file === 'index.html' ? /httpEquiv: "Content-Security-Policy",\s*content: "default-src 'none';/ : /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/;
      expect(html, file).toMatch(policy);
      expect(html, file).toContain('<meta name="referrer" content="no-referrer" />');
    }
    // The not-found page's own script and style run under its policy, and nothing else.
    await watchViolations(page);
    await page.goto('404.html?study=studies/pandalm.json');
    await expect(page.getByRole('heading', { level: 1, name: 'This address is not part of the study' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open Juror' })).toHaveAttribute('href', '/juror/?study=studies/pandalm.json');
    expect(await page.locator('main').evaluate((m) => getComputedStyle(m).maxWidth)).toBe('640px');
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('the app starts and runs a study without breaking the policy', async ({ page, errors }) => {
    await watchViolations(page);
    await openStudy(page, 'reasoning-trajectories.json', 2);
    // The welcome page is up: the wasm started under the policy.
    const title = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/reasoning-trajectories.json'), 'utf8')).title;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Begin' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
    // A trial with an image, Markdown and the rubric overlay.
    await expect.poll(() => page.locator('figure.media img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Rubric' }).click();
    await expect(page.getByRole('dialog', { name: 'Rubric' })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('a script injected into the page does not run', async ({ page, errors }) => {
    await watchViolations(page);
    await openStudy(page, 'pandalm.json', 1);
    await page.addScriptTag({ content: 'window.__x = 1' }).catch(() => {});
    expect(await page.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined();
    await expect.poll(() => violations(page)).toEqual(['script-src-elem inline']);
    // The one console error is the browser refusing that script; nothing else went wrong.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^console: .*inline script.* Content Security Policy directive:? ["']script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  });
});

test.describe('remote media named by a study', () => {
  test('are refused when the study is opened, so nothing is fetched', async ({ page, context, baseURL, errors }) => {
    // A study naming media on another site is invalid (the policy's img-src 'self' would block
    // the image anyway and leave the annotator a broken picture): the page lists the problem,
    // with the fix, and never asks for the remote file.
    const remote = 'https://media.example.org/chart.svg';
    const study = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/reasoning-trajectories.json'), 'utf8'));
    const withMedia: number[] = [];
    study.items.forEach((item: { media?: { src: string } }, i: number) => {
      if (item.media) {
        item.media.src = remote;
        withMedia.push(i);
      }
    });
    expect(withMedia.length).toBeGreaterThan(0);
    // Served as written (it cannot be compiled): the link opens it on the researcher's page,
    // which checks it fully.
    await page.route('**/studies/remote-media.json', (route) => route.fulfill({ body: JSON.stringify(study), contentType: 'application/json' }));
    let reachedNetwork = 0;
    await context.route('https://media.example.org/**', (route) => {
      reachedNetwork++;
      return route.abort();
    });
    const urls = recordRequests(page, context);

    await page.goto('index.html?study=studies/remote-media.json&slot=1');
    await expect(
      page.getByRole('heading', { level: 1, name: `This study has ${withMedia.length} problems` }),
    ).toBeVisible();
    const problems = page.getByRole('list', { name: 'Problems' }).getByRole('listitem');
    await expect(problems).toHaveCount(withMedia.length);
    await expect(page.getByText(`items[${withMedia[0]}].media.src`, { exact: true })).toBeVisible();
    await expect(problems.first()).toContainText(`"${remote}" is loaded from another site`);
    await expect(problems.first()).toContainText('give its path relative to the study');
    await expect(page.getByRole('button', { name: 'Start' })).toHaveCount(0);
    expect(reachedNetwork).toBe(0);
    const origin = new URL(baseURL!).origin;
    expect(urls.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
