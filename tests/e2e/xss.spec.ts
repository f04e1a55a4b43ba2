// Intent: a study whose texts are full of hostile payloads (AI output is untrusted, and so is a
// study file someone sent you) runs from the welcome page to the finish page without executing
// anything: raw HTML is shown as text, dangerous links are disabled, nothing gets an event handler.
import * as fs from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, fixture } from './fixtures';
import { compiled } from './compile';

const SCRIPT = '<script>window.__pwned=1</script>';
const IMG = '<img src=x onerror="window.__pwned=1">';
const JS_LINK = '[click me](javascript:window.__pwned=1)';
const DATA_LINK = '[data link](data:text/html,<script>alert(1)</script>)';
const SVG = '<svg onload=alert(1)>';
const IFRAME = '<iframe src="javascript:alert(1)">';
const HOVER = '<span onmouseover="window.__pwned=1">hover here</span>';
const MIXED_CASE_LINK = '[mixed case](  JaVaScRiPt:window.__pwned=1)';
const ENCODED_LINK = '[encoded](&#x6A;avascript&colon;window.__pwned=1)';
const AUTOLINK = '<javascript:window.__pwned=1>';
const TITLE_LINK = '[titled](#t "x\\" onmouseover=\\"window.__pwned=1")';
const REFERENCE_LINK = '[by reference][evil]\n\n[evil]: javascript:window.__pwned=1';
// A fenced code block: its whitespace must survive and the tag inside must be shown as text.
const CODE_LINE = '  <b>not bold</b>   three   spaces';
const CODE_BLOCK = '```\n' + CODE_LINE + '\n```';

/** Payloads shown as text: what the annotator must be able to read, verbatim. */
const TEXT_PAYLOADS = [SCRIPT, IMG, SVG, IFRAME, '<span onmouseover="window.__pwned=1">'];

/** Every payload, as one Markdown text, tagged with where it is so the page shows which is which. */
function hostile(where: string): string {
  return [
    `**${where}**`,
    '',
    `${SCRIPT} and inline ${IMG} and ${SVG} and ${IFRAME}`,
    '',
    SCRIPT,
    '',
    IMG,
    '',
    SVG,
    '',
    IFRAME,
    '',
    HOVER,
    '',
    `Links: ${JS_LINK}, ${DATA_LINK}, ${MIXED_CASE_LINK}, ${ENCODED_LINK}, ${AUTOLINK}, ${TITLE_LINK}`,
    '',
    REFERENCE_LINK,
    '',
    CODE_BLOCK,
  ].join('\n');
}

function xssStudy(): string {
  const study = JSON.parse(fs.readFileSync(fixture('valid/minimal.json'), 'utf8'));
  study.id = 'xss';
  study.title = `Hostile study ${IMG}`;
  study.description = hostile('description');
  study.instructions = hostile('instructions');
  study.contact = `${SCRIPT} ${IMG}`;
  study.consent = { text: hostile('consent'), agree_label: `Agree ${IMG}`, decline_label: 'Decline' };
  study.rubric.dimensions[0].question = `Does the answer help? ${SCRIPT}`;
  study.rubric.dimensions[0].scale.points[0].description = `Poor ${IMG}`;
  study.rubric.examples[0].title = `Example ${SVG}`;
  study.rubric.examples[0].prompt = hostile('example prompt');
  study.rubric.examples[0].output = hostile('example output');
  study.rubric.examples[0].why = `Because ${SCRIPT}`;
  study.rubric.look_for = [hostile('look for')];
  study.rubric.avoid = [hostile('avoid')];
  study.design.tasks[0].title = `Task ${IMG}`;
  study.design.tasks[0].instructions = hostile('task instructions');
  study.design.tasks[0].notes = 'optional';
  for (const item of study.items) {
    item.prompt = hostile(`prompt ${item.id}`);
    item.context = hostile(`context ${item.id}`);
    for (const system of Object.keys(item.outputs)) {
      item.outputs[system] = hostile(`output ${item.id} ${system}`);
    }
  }
  return JSON.stringify(study);
}

/** Whatever was executed, shown or attached; checked on every page. */
async function expectNothingLive(page: Page, dialogs: string[]) {
  expect(dialogs, 'no alert, confirm or prompt was opened').toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  const found = await page.evaluate(() => {
    const markdown = [...document.querySelectorAll('.markdown')];
    const live = markdown.flatMap((m) =>
      [...m.querySelectorAll('script, img, iframe, svg, object, embed, frame, style, link, meta, base, form')].map(
        (e) => e.tagName,
      ),
    );
    const handlers = [...document.querySelectorAll('*')].flatMap((e) =>
      [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `<${e.tagName} ${a.name}="${a.value}">`),
    );
    const badUrls = [...document.querySelectorAll('[href], [src], [action], [formaction], [srcdoc]')]
      .flatMap((e) =>
        ['href', 'src', 'action', 'formaction', 'srcdoc']
          .map((n) => e.getAttribute(n))
          .filter((v): v is string => v !== null)
          .filter((v) => /^\s*(javascript|data|vbscript):/i.test(v.replace(/[\u0000-\u001f]/g, '')) || /<|>/.test(v)),
      );
    const scripts = [...document.querySelectorAll('script')].filter((s) => !s.closest('head')).length;
    return { markdown: markdown.length, live, handlers, badUrls, scripts };
  });
  expect(found.live, 'no live element inside .markdown').toEqual([]);
  expect(found.handlers, 'no element has an on* attribute').toEqual([]);
  expect(found.badUrls, 'no javascript:, data: or markup in a URL').toEqual([]);
  expect(found.scripts, 'no script element outside <head>').toBe(0);
  return found;
}

/** The payloads of every .markdown container on the page are readable as text, code keeps its spaces. */
async function expectPayloadsAsText(page: Page, where: string) {
  const block = page.locator('.markdown', { hasText: where }).first();
  await expect(block).toBeVisible();
  for (const payload of TEXT_PAYLOADS) {
    await expect(block).toContainText(payload);
  }
  // Disabled links keep their text and lead nowhere.
  for (const name of ['click me', 'data link', 'mixed case', 'encoded', 'by reference']) {
    await expect(block.getByRole('link', { name, exact: true })).toHaveAttribute('href', '#');
  }
  await expect(block.getByRole('link', { name: 'javascript:window.__pwned=1' })).toHaveAttribute('href', '#');
  await expect(block.getByRole('link', { name: 'titled' })).toHaveAttribute('title', 'x" onmouseover="window.__pwned=1');
  const code = block.locator('pre code');
  await expect(code).toHaveCount(1);
  expect(await code.textContent()).toBe(CODE_LINE + '\n');
  await expect(code.locator('b')).toHaveCount(0);
  expect(await code.evaluate((e) => getComputedStyle(e.closest('pre')!).whiteSpace)).toMatch(/^pre/);
}

/** Hover and click everything an annotator might touch in the study's texts. */
async function poke(page: Page) {
  for (const target of await page.locator('.markdown').getByText('hover here').all()) {
    if (await target.isVisible()) await target.hover();
  }
  for (const link of await page.locator('.markdown a').all()) {
    if (!(await link.isVisible())) continue;
    await link.hover();
    await link.click();
  }
}

test('hostile payloads in a study are shown as text and never run', async ({ page, errors }) => {
  // Every page is poked link by link (hover, click, a blocked tab each): about a minute alone,
  // more beside another worker on two cores.
  test.slow();
  const dialogs: string[] = [];
  page.on('dialog', async (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss();
  });
  const body = xssStudy();
  await page.route('**/studies/xss.json', (route) =>
    route.fulfill({ body: compiled(body), contentType: 'application/json' }),
  );
  await page.goto('index.html?study=studies/xss.json&slot=1');

  // Welcome page: the title and the description.
  await expect(page.getByRole('heading', { level: 1, name: `Hostile study ${IMG}` })).toBeVisible();
  await expect(page).toHaveTitle(`Hostile study ${IMG} — Juror`);
  await expect(page.getByText(`Questions? ${SCRIPT} ${IMG}`)).toBeVisible();
  await expectPayloadsAsText(page, 'description');
  await poke(page);
  await expectNothingLive(page, dialogs);
  await page.getByRole('button', { name: 'Start' }).click();

  // Consent.
  await expect(page.getByRole('heading', { level: 1, name: 'Consent' })).toBeVisible();
  await expectPayloadsAsText(page, 'consent');
  await poke(page);
  await expectNothingLive(page, dialogs);
  await page.getByRole('button', { name: `Agree ${IMG}` }).click();

  // Instructions, with the rubric and its worked example.
  await expect(page.getByRole('heading', { level: 1, name: 'Instructions' })).toBeVisible();
  for (const where of ['instructions', 'example prompt', 'example output']) {
    await expectPayloadsAsText(page, where);
  }
  for (const where of ['look for', 'avoid']) {
    await expect(page.locator('.rubric li', { hasText: where })).toContainText(SCRIPT);
  }
  await expect(page.getByRole('heading', { name: `Example ${SVG}` })).toBeVisible();
  await expect(page.getByText(`Does the answer help? ${SCRIPT}`).first()).toBeVisible();
  await poke(page);
  await expectNothingLive(page, dialogs);
  await page.getByRole('button', { name: 'Begin' }).click();

  // Every trial: prompt, context, both outputs; links clicked, payloads hovered, notes typed.
  for (const item of ['q1', 'q2']) {
    await expect(page.getByText(/^Trial \d of 2/)).toBeVisible();
    const prompt = await page.locator('.prompt .markdown').first().textContent();
    const shown = prompt?.includes('prompt q1') ? 'q1' : 'q2';
    await expectPayloadsAsText(page, `prompt ${shown}`);
    await expectPayloadsAsText(page, `context ${shown}`);
    await expectPayloadsAsText(page, `output ${shown} base`);
    await expectPayloadsAsText(page, `output ${shown} ours`);
    await expect(page.getByText(`Task ${IMG}`)).toBeVisible();
    await poke(page);
    await page.getByRole('textbox', { name: 'Notes' }).fill(`${SCRIPT} ${IMG}`);
    await expectNothingLive(page, dialogs);
    for (const label of ['Output A', 'Output B']) {
      await page.getByRole('radiogroup', { name: `Helpfulness — ${label}` }).getByRole('radio').first().check();
    }
    await page.getByRole('radiogroup', { name: 'Which output do you prefer overall?' }).getByRole('radio').first().check();
    // The rubric overlay shows the same texts over the trial.
    if (item === 'q1') {
      await page.getByRole('button', { name: 'Rubric' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rubric' });
      await expect(dialog.locator('.markdown', { hasText: 'example output' })).toContainText(SCRIPT);
      await expectNothingLive(page, dialogs);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
    }
    await page.getByRole('button', { name: 'Next' }).click();
  }

  // The finish page.
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you — you have finished' })).toBeVisible();
  await expectNothingLive(page, dialogs);
  expect(errors).toEqual([]);
});
