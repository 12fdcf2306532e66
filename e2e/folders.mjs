// The top bar's folders (issue 15): the folder just used is first among the recent folders and
// is the default folder after a restart; a start in / asks first, and Cancel starts nothing.
import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { test, openApp, waitFor } from './lib/harness.mjs';
import { liveRows, liveStateIs, project, startSession, stateIs } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '15ms' };

/** The folders the recent-folders menu lists, best first (the menu is closed again after). */
async function recentFolders(page) {
  await page.getByTestId('recent-folders').click();
  const items = page.getByTestId('recent-folder');
  await waitFor(async () => (await items.count()) > 0, { message: 'the recent folders' });
  const folders = await items.evaluateAll((els) => els.map((e) => e.dataset.folder));
  await page.keyboard.press('Escape');
  return folders;
}

test('the folder just used is the first recent folder and the default after a restart; / asks first', async () => {
  const { app, page } = await openApp({ env });
  const dir = await realpath(await project());
  const other = await realpath(await project());

  await startSession(page, dir);
  const first = await recentFolders(page);
  if (first[0] !== dir) throw new Error(`recent folders ${JSON.stringify(first)}, want ${dir} first`);

  await page.getByTestId('cwd-input').fill(other);
  await page.getByTestId('start-session').click();
  await waitFor(async () => (await liveRows(page).count()) === 2, { timeout: 20_000, message: 'the second session' });
  await liveStateIs(page, 1, 'ready');
  await waitFor(async () => (await recentFolders(page))[0] === other, { message: 'the second folder first' });

  // Picking a recent folder fills the field.
  await page.getByTestId('recent-folders').click();
  await page.locator(`[data-testid=recent-folder][data-folder="${dir}"]`).click();
  if ((await page.getByTestId('cwd-input').inputValue()) !== dir) throw new Error('picking a recent folder did not fill the field');

  // The file system's root asks first; Cancel keeps the form and starts nothing.
  await page.getByTestId('cwd-input').fill('/');
  await page.getByTestId('start-session').click();
  await waitFor(async () => (await page.getByTestId('broad-folder-confirm').count()) === 1, { message: 'the question for /' });
  await page.getByTestId('broad-folder-cancel').click();
  await waitFor(async () => (await page.getByTestId('broad-folder-confirm').count()) === 0, { message: 'the question to close' });
  if ((await liveRows(page).count()) !== 2) throw new Error('Cancel started a session');
  if ((await page.getByTestId('cwd-input').inputValue()) !== '/') throw new Error('Cancel changed the folder field');

  // After a restart on the same history the last folder used is the default.
  await app.stop();
  const { app: again, page: page2 } = await openApp({ env, db: app.db });
  await waitFor(async () => (await page2.getByTestId('cwd-input').inputValue()) === other, { message: 'the last folder as the default' });
  const after = await recentFolders(page2);
  if (after[0] !== other || !after.includes(dir)) throw new Error(`recent folders after a restart ${JSON.stringify(after)}`);
});

test('at 800×600 a long folder shows its end, and Enter in it starts and hands the keyboard to the prompt box', async () => {
  const { page } = await openApp({ env }, { viewport: { width: 800, height: 600 } });
  const dir = path.join(await realpath(await project()), 'src', 'github.com', 'example', 'a-longer-project-name');
  await mkdir(dir, { recursive: true });
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1, { message: 'the Demo agent' });
  await page.getByTestId('agent-picker').selectOption('demo');
  const cwd = page.getByTestId('cwd-input');
  await cwd.fill(dir);
  await cwd.press('Enter');
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'session state idle' });
  await waitFor(async () => (await page.evaluate(() => document.activeElement?.dataset.testid)) === 'composer-input',
    { message: 'the keyboard in the prompt box after Start' });
  // The field shows the path's end (the project's own folder), with room for more than a few characters.
  await waitFor(async () => {
    const f = await cwd.evaluate((el) => ({ left: el.scrollLeft, width: el.clientWidth, scroll: el.scrollWidth }));
    return f.width >= 90 && f.left + f.width >= f.scroll - 2;
  }, { message: 'the folder field showing the end of the path' });
});
