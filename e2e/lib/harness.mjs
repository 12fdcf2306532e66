// e2e harness: start the dev-tag agentdesk binary, drive its UI in headless Chromium
// (playwright-core + /usr/bin/chromium), and a tiny sequential test runner.
//
// Usage (e2e/run.mjs):
//   import { test, run, startApp, launchBrowser, openPage, waitFor } from './lib/harness.mjs';
//   test('greets', async () => {
//     const app = await startApp();                 // fresh temp DB unless {db} is given
//     const page = await openPage(await launchBrowser(), app.url);
//     await page.getByTestId('send').click();
//     await waitFor(async () => (await page.getByTestId('entry').count()) > 0, { message: 'no entry' });
//   });
//   await run();                                    // last line: "N passed, N failed"; exit 1 on failure
//
// Apps, browsers and pages started inside a test are cleaned up after it, pass or fail.
// Synchronise by polling a condition (waitFor, page.waitFor*, locators), never by sleeping.
// Env: E2E_GREP=<regexp> runs matching tests only; E2E_VERBOSE=1 streams app logs to stderr;
// E2E_TEST_TIMEOUT_MS (default 60000); AGENTDESK_E2E_BIN / AGENTDESK_E2E_ASSETDIR / CHROMIUM_PATH override paths.
// Needs a display: scripts/e2e.sh runs it under xvfb-run (the dev binary also opens its GTK window).

import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const APP_BIN = process.env.AGENTDESK_E2E_BIN || path.join(ROOT, 'build/bin/agentdesk-dev');
export const ASSET_DIR = process.env.AGENTDESK_E2E_ASSETDIR || path.join(ROOT, 'frontend/dist');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SHOT_DIR = path.join(ROOT, 'build/e2e');
const VERBOSE = !!process.env.E2E_VERBOSE;

// The measured set from docs/toolchain.md §6b: headless Chromium as root, no GPU, no network noise.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Resources opened by the running test; closed/removed by run() after each test. Apps stay listed
// after stop() so a failure report can show their logs, and their temp dirs (with the DB) outlive
// stop() so a test can restart on the same database.
const live = { apps: new Set(), contexts: new Set(), pages: [], dirs: new Set() };
/** How to close each browser context of live.contexts and its browser, when not ctx.close(). */
const closers = new Map();

// ---------------------------------------------------------------------------------------------
// Polling helpers

/**
 * Poll cond() (sync or async) until it returns a truthy value, and return that value.
 * An exception thrown by cond() fails immediately (use it for "the app died" checks).
 */
export async function waitFor(cond, { timeout = 10_000, interval = 50, message = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeout} ms waiting for ${message}`);
    await delay(interval);
  }
}

/** Reject with `message` if promise p has not settled within ms. */
export async function withTimeout(p, ms, message) {
  const ac = new AbortController();
  const timer = delay(ms, undefined, { signal: ac.signal, ref: false }).then(
    () => { throw new Error(message ?? `timed out after ${ms} ms`); },
    () => {}, // aborted: p settled first
  );
  try {
    return await Promise.race([p, timer]);
  } finally {
    ac.abort();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function tail(text, n) {
  const lines = text.replace(/\s+$/, '').split('\n');
  return lines.slice(-n).join('\n');
}

/** A fresh temp dir, removed after the running test (pass or fail). */
export async function tempDir(prefix = 'agentdesk-e2e-') {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  live.dirs.add(dir);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// The app under test

/**
 * Spawn build/bin/agentdesk-dev with its embedded dev server on a free port and wait until it serves
 * the frontend. Each app gets a temp dir with its own DB (AGENTDESK_DB) and XDG data/config dirs;
 * the dir is removed after the test, not by stop(): `startApp({db: first.db})` restarts on the same DB.
 * @param {{db?: string, env?: Record<string,string>, args?: string[], timeout?: number}} [opts]
 * @returns {Promise<{url: string, port: number, db: string, dir: string, proc: import('node:child_process').ChildProcess,
 *   stop: () => Promise<{code: number|null, signal: string|null}>, logs: () => string, logTail: (n?: number) => string,
 *   exited: Promise<{code: number|null, signal: string|null}>}>}
 */
export async function startApp({ db, env = {}, args = [], timeout = 30_000 } = {}) {
  if (!existsSync(APP_BIN)) throw new Error(`${APP_BIN} not found: build it with scripts/build-dev.sh`);
  if (!existsSync(path.join(ASSET_DIR, 'index.html'))) {
    throw new Error(`${ASSET_DIR}/index.html not found: build the frontend (cd frontend && npm run build)`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-e2e-'));
  live.dirs.add(dir);
  const dbPath = db ?? path.join(dir, 'agentdesk.db');
  const port = await freePort();
  const addr = `127.0.0.1:${port}`;
  const url = `http://${addr}/`;

  const chunks = [];
  let size = 0;
  const collect = (chunk) => {
    const s = chunk.toString();
    chunks.push(s);
    size += s.length;
    while (size > 4 << 20 && chunks.length > 1) size -= chunks.shift().length; // keep the last ~4 MB
    if (VERBOSE) process.stderr.write(s);
  };
  const logs = () => chunks.join('');

  // Flags as in toolchain §6b. The same settings as env vars make Wails skip its own argv parsing.
  const proc = spawn(APP_BIN, ['-devserver', addr, '-assetdir', ASSET_DIR, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      devserver: addr,
      assetdir: ASSET_DIR,
      loglevel: 'debug', // Wails' dev default logs every binding result (trace): too noisy for a log tail
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      AGENTDESK_DB: dbPath,
      // The runner's own shell startup files (pyenv, nvm...) would add seconds to each start;
      // the capture has tests of its own (backend/agents).
      AGENTDESK_NO_LOGIN_ENV: '1',
      // The dev window shows a blank page: the tests drive Chromium, and a second copy of the app
      // rendering every event in the window would take half of a 2-core machine (e2e_agent_dev.go).
      AGENTDESK_E2E_BLANK_WINDOW: '1',
      ...env,
    },
  });
  proc.stdout.on('data', collect);
  proc.stderr.on('data', collect);

  let exitInfo = null;
  const exited = new Promise((resolve) => {
    proc.once('exit', (code, signal) => resolve((exitInfo = { code, signal })));
    proc.once('error', (err) => {
      collect(`spawn error: ${err.message}\n`);
      resolve((exitInfo = { code: null, signal: null, error: err }));
    });
  });
  const describeExit = () =>
    exitInfo.error ? exitInfo.error.message : exitInfo.signal ? `signal ${exitInfo.signal}` : `exit code ${exitInfo.code}`;

  let stopping = null;
  const app = {
    url,
    port,
    db: dbPath,
    dir,
    proc,
    exited,
    logs,
    logTail: (n = 40) => tail(logs(), n),
    status: () => (exitInfo ? describeExit() : 'running'),
    /** SIGTERM, wait up to 5 s, then SIGKILL; resolves with the exit status. Safe to call twice.
     *  Keeps the temp dir (and the DB in it) until the end of the test. */
    stop() {
      stopping ??= (async () => {
        if (!exitInfo) {
          proc.kill('SIGTERM');
          // Wails 2.9.2 race: a SIGTERM that lands before GTK's main loop runs only logs this
          // assertion and the app never exits (its signal handler is one-shot). Don't wait 5 s for it.
          const lost = () => logs().includes("gtk_main_quit: assertion 'main_loops != NULL'");
          const done = await waitFor(() => exitInfo || lost(), { timeout: 5_000, interval: 50 }).catch(() => null);
          if (!exitInfo) {
            collect(`harness: app did not exit ${done ? '(SIGTERM lost before the GTK main loop started)' : 'within 5 s of SIGTERM'}, sending SIGKILL\n`);
            proc.kill('SIGKILL');
            await exited;
          }
        }
        return exitInfo;
      })();
      return stopping;
    },
  };
  live.apps.add(app);

  try {
    await waitFor(
      async () => {
        if (exitInfo) throw new Error(`app exited (${describeExit()}) before serving ${url}\n${tail(logs(), 40)}`);
        try {
          const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
          await res.arrayBuffer();
          return res.status === 200;
        } catch {
          return false; // not listening yet
        }
      },
      { timeout, interval: 100, message: `${url} to answer 200` },
    );
  } catch (err) {
    await app.stop();
    throw err;
  }
  return app;
}

// ---------------------------------------------------------------------------------------------
// The browser

/**
 * Headless Chromium (/usr/bin/chromium) with a fresh profile dir, removed when the context closes.
 * @param {{args?: string[]} & Record<string, unknown>} [opts] extra launchPersistentContext options
 */
export async function launchBrowser({ args = [], ...opts } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-chromium-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    headless: true,
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, ...args],
    ...opts,
  });
  live.contexts.add(ctx);
  ctx.once('close', () => {
    live.contexts.delete(ctx);
    rm(dir, { recursive: true, force: true }).catch(() => {});
  });
  return ctx;
}

/**
 * Headless Chromium started as this runner's own child, like the apps it starts, and driven over
 * CDP: the perf script's browser. Playwright's launch starts Chromium in a session of its own
 * (setsid), and Linux then schedules it as a group of its own (autogroup), beside the group of
 * the app and its agent: on 2 cores each group gets one. The app's own webview is the app's
 * child and shares its group (checked: WebKitWebProcess has the app's session and autogroup),
 * so its page competes with the app's threads one by one. Started here, Chromium does too.
 * Close it with closeBrowser(ctx) (the runner does after each test).
 */
export async function launchBrowserBesideApp({ args = [] } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-chromium-'));
  const proc = spawn(CHROMIUM, [...CHROMIUM_ARGS, ...args, '--headless', '--remote-debugging-port=0',
    `--user-data-dir=${dir}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const gone = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  let stderr = '';
  const endpoint = new Promise((resolve, reject) => {
    proc.stderr.on('data', (chunk) => {
      if (stderr.length > 1 << 20) return; // listening long ago: the rest is Chromium's chatter
      stderr += chunk;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    proc.once('exit', (code, signal) =>
      reject(new Error(`chromium exited (${signal ?? `code ${code}`}) before it listened:\n${tail(stderr, 20)}`)));
    proc.once('error', reject);
  });
  try {
    const browser = await chromium.connectOverCDP(await withTimeout(endpoint, 30_000, 'chromium did not listen within 30 s'));
    const ctx = browser.contexts()[0];
    live.contexts.add(ctx);
    closers.set(ctx, async () => {
      // browser.close() would only disconnect: Browser.close ends Chromium with its child
      // processes (a SIGKILL would leave them to init).
      const exited = new Promise((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', resolve)));
      await (await browser.newBrowserCDPSession()).send('Browser.close').catch(() => {});
      await withTimeout(exited, 10_000, 'chromium did not exit within 10 s of Browser.close').catch(() => {}); // then killed below
      gone();
    });
    return ctx;
  } catch (err) {
    gone();
    throw err;
  }
}

/** Closes a context from launchBrowser or launchBrowserBesideApp, with its browser. */
export async function closeBrowser(ctx) {
  const close = closers.get(ctx) ?? (() => ctx.close());
  closers.delete(ctx);
  live.contexts.delete(ctx);
  await close();
}

/**
 * Open url in ctx and wait until the Wails bridge is up (bindings and runtime injected).
 * The page's console errors and uncaught exceptions are kept and printed if the test fails.
 */
export async function openPage(ctx, url, { timeout = 15_000 } = {}) {
  const blank = ctx.pages().find((p) => p.url() === 'about:blank' && !live.pages.some((e) => e.page === p));
  const page = blank ?? (await ctx.newPage());
  const entry = { page, messages: [] };
  live.pages.push(entry);
  page.on('pageerror', (err) => entry.messages.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') entry.messages.push(`console.${msg.type()}: ${msg.text()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => window.go?.main?.Sessions && window.runtime, null, { timeout });
  return page;
}

/**
 * Starts the app (startApp's options) and opens its page in a fresh browser (launchBrowser's
 * options: a viewport, say), as most tests begin.
 * @returns {Promise<{app: Awaited<ReturnType<typeof startApp>>, page: import('playwright').Page}>}
 */
export async function openApp(opts, browser) {
  const app = await startApp(opts);
  const page = await openPage(await launchBrowser(browser), app.url);
  return { app, page };
}

// ---------------------------------------------------------------------------------------------
// The runner

const tests = [];

/** Register a test. fn receives {name}. Tests run sequentially, in registration order. */
export function test(name, fn, { timeout = Number(process.env.E2E_TEST_TIMEOUT_MS) || 60_000 } = {}) {
  tests.push({ name, fn, timeout });
}

async function cleanup() {
  live.pages.length = 0;
  for (const ctx of [...live.contexts]) await closeBrowser(ctx).catch(() => {});
  for (const app of live.apps) await app.stop().catch(() => {});
  live.apps.clear();
  for (const dir of live.dirs) await rm(dir, { recursive: true, force: true }).catch(() => {});
  live.dirs.clear();
}

const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

async function reportFailure(t, err) {
  const text = stripAnsi(String(err?.stack ?? err?.message ?? err));
  const [first, ...rest] = stripAnsi(err?.message ?? text).split('\n');
  console.log(`FAIL - ${t.name}: ${first}`);
  const detail = (err?.stack && !rest.length ? text.split('\n').slice(1) : rest).slice(0, 30);
  for (const line of detail) console.log(`    ${line}`);

  const open = live.pages.filter((e) => !e.page.isClosed());
  if (open.length) {
    const file = path.join(SHOT_DIR, `${t.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100)}.png`);
    try {
      await mkdir(SHOT_DIR, { recursive: true });
      await open.at(-1).page.screenshot({ path: file, fullPage: true, timeout: 5_000 });
      console.log(`    screenshot: ${path.relative(ROOT, file)}`);
    } catch (e) {
      console.log(`    screenshot failed: ${e.message.split('\n')[0]}`);
    }
  }
  for (const e of live.pages) {
    // Collapse repeats (e.g. a page retrying the WebSocket of an app that was stopped).
    const counted = [];
    for (const m of e.messages) {
      const last = counted.at(-1);
      if (last && last.m === m) last.n++;
      else counted.push({ m, n: 1 });
    }
    for (const { m, n } of counted.slice(-20)) console.log(`    page: ${n > 1 ? `(${n}x) ` : ''}${m}`);
  }
  for (const app of live.apps) {
    console.log(`    --- app ${app.url} (${app.status()}) logs, last 40 lines ---`);
    for (const line of app.logTail(40).split('\n')) console.log(`    | ${line}`);
  }
}

// A stray rejection fails the running test instead of killing the runner.
let failCurrent = null;
process.on('unhandledRejection', (err) => {
  if (failCurrent) failCurrent(err);
  else console.error('harness: unhandled rejection outside a test:', err);
});

// Never leave an app (and its GTK window) behind, whatever ends the runner.
process.on('exit', () => {
  for (const app of live.apps) if (app.proc.exitCode === null && app.proc.signalCode === null) app.proc.kill('SIGKILL');
  for (const dir of live.dirs) rmSync(dir, { recursive: true, force: true });
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    console.log(`harness: ${sig}, stopping`);
    process.exit(1);
  });
}

/** Run the registered tests; prints "ok - name" / "FAIL - name: error", then "N passed, N failed" last. */
export async function run() {
  const grep = process.env.E2E_GREP ? new RegExp(process.env.E2E_GREP) : null;
  let passed = 0;
  let failed = 0;
  for (const t of tests) {
    if (grep && !grep.test(t.name)) continue;
    try {
      const stray = new Promise((_, reject) => {
        failCurrent = reject;
      });
      await Promise.race([
        withTimeout(
          Promise.resolve().then(() => t.fn({ name: t.name })),
          t.timeout,
          `test timed out after ${t.timeout} ms`,
        ),
        stray,
      ]);
      console.log(`ok - ${t.name}`);
      passed++;
    } catch (err) {
      failed++;
      await reportFailure(t, err);
    } finally {
      failCurrent = null;
      await cleanup();
    }
  }
  const code = failed ? 1 : 0;
  // Exit explicitly so a forgotten handle cannot hang CI; flush the summary first.
  await new Promise((resolve) => process.stdout.write(`${passed} passed, ${failed} failed\n`, resolve));
  process.exit(code);
}
