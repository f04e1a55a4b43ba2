import { defineConfig } from '@playwright/test';

// End-to-end tests drive Debian's Chromium (never a downloaded browser) against the release
// build in dist/, served on 127.0.0.1 only. scripts/test builds dist/ once before this runs.
//
// The build is served under /juror/, as GitHub Pages serves a project site, so every spec also
// proves that the app works under a sub-path. Service workers are blocked except in the specs
// about offline use and updates (`test.use({ serviceWorkers: 'allow' })`): a worker that takes
// control mid-test would route requests past `page.route`.
const port = Number(process.env.JUROR_E2E_PORT ?? 4173);
const site = 'target/e2e-site';

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/juror/`,
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `mkdir -p ${site} && ln -sfn ../../dist ${site}/juror && exec python3 -m http.server ${port} --bind 127.0.0.1 --directory ${site}`,
    url: `http://127.0.0.1:${port}/juror/index.html`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
