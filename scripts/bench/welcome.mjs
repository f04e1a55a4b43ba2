// What the load benchmarks share (load.mjs, compare.mjs): the throttling conditions, a fresh
// throttled page, and how the welcome page is seen.

/** Network and CPU throttling: latency ms, down and up bytes/s, CPU slowdown. */
export const conditions = {
  none: null,
  'fast-3g': { latency: 150, down: 1_600_000 / 8, up: 750_000 / 8, cpu: 1 },
  '4g-cpu4': { latency: 60, down: 9_000_000 / 8, up: 1_500_000 / 8, cpu: 4 },
};

/** A fresh context (empty HTTP cache, no service worker, a phone's viewport) and page of
 * `browser`, throttled to `condition` (none if null), with its CDP session. */
export async function freshPage(browser, condition) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (condition) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: condition.latency, downloadThroughput: condition.down, uploadThroughput: condition.up,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: condition.cpu });
  }
  return { context, page, cdp };
}

// Run in the page before its own scripts: the first animation frame after a button named Start
// is in the DOM (the frame that will show it), kept in `window.__welcomeAt` and announced on the
// console. Watched from inside the page rather than polled by Playwright, whose injected script
// (about 60 ms of a 4×-slowed main thread) was compiled and run in the middle of the load, and
// whose first poll came up to 200 ms after the button was in when the page was busy.
export function watchForStart() {
  const hasStart = () => [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Start');
  new MutationObserver((_, observer) => {
    if (!hasStart()) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      window.__welcomeAt = performance.now();
      console.debug('juror-bench: welcome');
    });
  }).observe(document, { subtree: true, childList: true, characterData: true });
}
