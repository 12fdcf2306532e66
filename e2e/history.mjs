// A long saved session opens with its end, then its earlier parts are added in front
// (HistoryStore.open). Someone who scrolled up meanwhile keeps reading what they were reading:
// the rows that arrive above do not move the view. Registered by run.mjs.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { APP_BIN, test, openApp, tempDir, waitFor } from './lib/harness.mjs';

/** More than one part: the tail (200 entries), then earlier ones (2,000 at a time). */
const ENTRIES = 2_600;

/** Seeds a saved session of ENTRIES entries through the headless CLI; returns its database. */
async function seed() {
  const dir = await tempDir('agentdesk-history-');
  const script = path.join(dir, 'script.json');
  const messages = ENTRIES - 1; // and the prompt
  await writeFile(script, JSON.stringify([
    { expect: 'initialize' },
    { reply: { protocolVersion: 1, agentCapabilities: {} } },
    { expect: 'session/new' },
    { reply: { sessionId: 'history' } },
    { expect: 'session/prompt' },
    { stream: { messages, chunks: messages, texts: ['Entry number {n}: a line of text long enough to wrap once on a narrow window, so rows are taller than one line. '] } },
    { reply: { stopReason: 'end_turn' } },
  ]));
  const db = path.join(dir, 'seed.db');
  await promisify(execFile)(APP_BIN, ['run', '--db', db, '--cwd', dir, '--permissions', 'allow',
    '--agent-cmd', `'${APP_BIN}' demo-agent --script '${script}'`, 'a long saved session'], { maxBuffer: 1 << 28 });
  return db;
}

/** The first entry row whose bottom is below the transcript's top, and where its top is. */
function topEntry(page) {
  return page.evaluate(() => {
    const box = document.querySelector('[data-testid=transcript]').getBoundingClientRect();
    for (const el of document.querySelectorAll('[data-testid=transcript] [data-testid=entry]')) {
      const r = el.getBoundingClientRect();
      if (r.bottom > box.top) return { id: el.dataset.entryId, top: r.top - box.top };
    }
    return null;
  });
}

test('opening a long saved session: the earlier parts arrive above a scrolled-up view without moving it', async () => {
  const db = await seed();
  const { app, page } = await openApp({ db });
  const item = page.getByTestId('history-item');
  await waitFor(async () => (await item.count()) === 1, { message: 'the seeded session in the history' });

  // Hold the earlier parts back until the view is scrolled up (the tail part passes).
  await page.evaluate(() => {
    const bound = window.go.main.History;
    const open = bound.OpenHistoryPart;
    let release;
    window.__release = new Promise((resolve) => (release = resolve));
    window.__releasePart = () => release();
    bound.OpenHistoryPart = (id, from, limit) => (from < 0 ? open(id, from, limit) : window.__release.then(() => open(id, from, limit)));
  });
  await item.click();
  const rows = page.locator('[data-testid=transcript] [data-rows]');
  await waitFor(async () => Number(await rows.getAttribute('data-rows')) > 0, { message: 'the tail of the session' });
  const tail = Number(await rows.getAttribute('data-rows'));
  if (tail >= ENTRIES) throw new Error(`the whole session (${tail} rows) opened at once: there is no earlier part to test`);

  // Scroll up like a person (the wheel), a few screens, and let it settle.
  const transcript = page.getByTestId('transcript');
  await transcript.hover();
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -600);
  await waitFor(async () => (await page.locator('.jump').count()) === 1, { message: 'Jump to latest (the view no longer follows)' });
  // Settled: the same row at the same place over ten animation frames (a wheel scroll animates).
  await waitFor(async () => {
    const [a, b] = await page.evaluate(async () => {
      const frames = (n) => new Promise((resolve) => {
        const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
        requestAnimationFrame(step);
      });
      const sc = document.querySelector('[data-testid=transcript]');
      const first = sc.scrollTop;
      await frames(10);
      return [first, sc.scrollTop];
    });
    return a === b;
  }, { message: 'the scrolled view to settle' });
  const before = await topEntry(page);

  // What the view did after the release, printed if it moved.
  await page.evaluate(() => {
    window.__log = [];
    const sc = document.querySelector('[data-testid=transcript]');
    const rows = () => sc.querySelector('[data-rows]')?.getAttribute('data-rows');
    sc.addEventListener('scroll', () => window.__log.push(['scroll', sc.scrollTop, sc.scrollHeight, rows(), performance.now()|0]));
    new MutationObserver(() => window.__log.push(['rows', sc.scrollTop, sc.scrollHeight, rows(), performance.now()|0])).observe(sc, { attributes: true, subtree: true, attributeFilter: ['data-rows'] });
  });
  await page.evaluate(() => window.__releasePart());
  await waitFor(async () => Number(await rows.getAttribute('data-rows')) >= ENTRIES, { message: 'the whole session in the transcript' });
  // Two frames for the scroll that keeps the view in place to be painted.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const after = await topEntry(page);
  if (!after || after.id !== before.id || Math.abs(after.top - before.top) > 2) {
    console.log(`# scroll and rows after the release: ${JSON.stringify(await page.evaluate(() => window.__log.slice(0, 20)))}`);
    throw new Error(`the view moved when the earlier entries arrived: ${JSON.stringify(before)} was at the top, now ${JSON.stringify(after)}`);
  }
});
