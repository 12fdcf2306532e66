// End-to-end tests: headless Chromium drives agentdesk's UI (by the data-testid contract) with
// the real Go backend, real SQLite file and the real Demo agent process behind it.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test, run, startApp, launchBrowser, openPage, waitFor } from './lib/harness.mjs';

// The Demo agent paces itself like a real agent; a short pace keeps the suite quick while still
// streaming over many events.
const env = { AGENTDESK_DEMO_PACE: '15ms' };

async function project() {
  return mkdtemp(path.join(os.tmpdir(), 'agentdesk-project-'));
}

async function stateIs(page, state) {
  return (await page.getByTestId('session-state').textContent())?.trim() === state;
}

// startSession picks the Demo agent and a folder, presses Start and waits for idle.
async function startSession(page, cwd) {
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1,
    { message: 'the Demo agent in the picker' });
  await page.getByTestId('agent-picker').selectOption('demo');
  await page.getByTestId('cwd-input').fill(cwd);
  await page.getByTestId('start-session').click();
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'session state idle' });
}

async function send(page, text) {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('send').click();
}

test('a demo turn streams, asks permission, ends, and is in the history after a restart', async () => {
  const app = await startApp({ env });
  const page = await openPage(await launchBrowser(), app.url);
  await startSession(page, await project());
  await send(page, 'hello from e2e');

  // Thoughts and the plan stream in before the permission prompt.
  await waitFor(async () => (await page.locator('[data-testid=entry][data-kind=thought]').count()) > 0, { message: 'a thought' });
  await waitFor(async () => (await page.locator('[data-testid=entry][data-kind=plan]').count()) > 0, { message: 'the plan' });
  const allow = page.locator('[data-testid=permission-option][data-option-kind=allow_once]');
  await waitFor(async () => (await allow.count()) === 1, { timeout: 20_000, message: 'the permission prompt' });
  // The prompt renders inside the tool card it guards.
  const guarded = page.locator('[data-testid=entry][data-kind=tool] [data-testid=permission]');
  if ((await guarded.count()) !== 1) throw new Error('the permission prompt is not inside its tool card');
  await allow.click();

  await waitFor(async () => (await page.locator('[data-testid=turn-end][data-stop-reason=end_turn]').count()) === 1,
    { timeout: 20_000, message: 'turn end with end_turn' });
  await waitFor(() => stateIs(page, 'idle'), { message: 'state idle after the turn' });
  if ((await page.getByTestId('permission').count()) !== 0) throw new Error('a permission prompt is still open');
  const tools = await page.locator('[data-testid=entry][data-kind=tool]').evaluateAll((els) => els.map((e) => e.dataset.status));
  if (tools.length !== 3 || tools.some((s) => s !== 'completed')) throw new Error(`tool statuses ${tools}`);
  const agentText = await page.locator('[data-testid=entry][data-kind=agent]').last().textContent();
  if (!agentText.includes('you allowed it')) throw new Error(`final message: ${agentText}`);
  if ((await page.locator('[data-testid=transcript] pre code, [data-testid=transcript] code').count()) === 0) {
    throw new Error('the Markdown code block did not render as code');
  }

  // Quit and start again on the same database: the session is in the history and opens.
  await app.stop();
  const again = await startApp({ env, db: app.db });
  const page2 = await openPage(await launchBrowser(), again.url);
  const item = page2.getByTestId('history-item');
  await waitFor(async () => (await item.count()) === 1, { message: 'the saved session in the history' });
  const label = await item.textContent();
  if (!label.includes('hello from e2e')) throw new Error(`history item reads ${label}`);
  await item.click();
  await waitFor(async () => (await page2.locator('[data-testid=entry][data-kind=tool]').count()) === 3,
    { message: 'the saved transcript' });
  await waitFor(async () => (await page2.locator('[data-testid=turn-end][data-stop-reason=end_turn]').count()) === 1,
    { message: 'the saved turn end' });
});

test('Stop with a permission open cancels the turn and keeps the session warm', async () => {
  const app = await startApp({ env });
  const page = await openPage(await launchBrowser(), app.url);
  await startSession(page, await project());
  await send(page, 'first');
  const permission = page.getByTestId('permission');
  await waitFor(async () => (await permission.count()) === 1, { timeout: 20_000, message: 'the permission prompt' });
  await waitFor(() => stateIs(page, 'running'), { message: 'state running' });
  await page.getByTestId('stop').click();
  await waitFor(async () => (await page.locator('[data-testid=turn-end][data-stop-reason=cancelled]').count()) === 1,
    { timeout: 20_000, message: 'turn end with cancelled' });
  if ((await permission.count()) !== 0) throw new Error('the permission prompt stayed open after Stop');
  const edit = page.locator('[data-testid=entry][data-kind=tool][data-status=cancelled]');
  if ((await edit.count()) !== 1) throw new Error('the guarded tool call is not shown cancelled');

  // Same agent process, same session: the next prompt runs.
  await waitFor(() => stateIs(page, 'idle'), { message: 'state idle after the cancel' });
  await send(page, 'second');
  await waitFor(async () => (await page.getByTestId('permission-option').count()) > 0, { timeout: 20_000, message: 'the second permission' });
  await page.locator('[data-testid=permission-option][data-option-kind=reject_once]').click();
  await waitFor(async () => (await page.locator('[data-testid=turn-end][data-stop-reason=end_turn]').count()) === 1,
    { timeout: 20_000, message: 'the second turn to end' });
});

test('a start that cannot work says why in the error banner', async () => {
  const app = await startApp({ env });
  const page = await openPage(await launchBrowser(), app.url);
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1,
    { message: 'the Demo agent in the picker' });
  await page.getByTestId('cwd-input').fill('/no/such/folder');
  await page.getByTestId('start-session').click();
  const banner = page.getByTestId('error-banner');
  await waitFor(async () => (await banner.count()) === 1, { message: 'the error banner' });
  const text = await banner.textContent();
  if (!text.includes('/no/such/folder') || !text.includes('does not exist')) throw new Error(`banner reads ${text}`);
});

await run();
