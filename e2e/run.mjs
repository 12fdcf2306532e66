// End-to-end tests: headless Chromium drives agentdesk's UI (by the data-testid contract) with
// the real Go backend, real SQLite file and the real Demo agent process behind it. Tests with a
// scripted agent in its place (hostile output, an agent that ignores Stop) are in security.mjs
// and hardstop.mjs, custom agents and logins in agents.mjs, a long saved session opening in
// parts in history.mjs, several live sessions in sessions.mjs, the top bar's folders in folders.mjs,
// a turn's Changes card and a revert from the window in changes.mjs, the usage view in usage.mjs,
// permission rules and the audit log in rules.mjs, the ACP registry in registry.mjs, presets'
// overrides and install question in presets.mjs, house rules in prompts.mjs, plans by id and
// the agent's own sessions archived in agentsessions.mjs;
// they run after these.
import { test, openApp, run, waitFor } from './lib/harness.mjs';
import { project, send, startSession, stateIs, turnEnds } from './lib/ui.mjs';

// The Demo agent paces itself like a real agent; a short pace keeps the suite quick while still
// streaming over many events.
const env = { AGENTDESK_DEMO_PACE: '15ms' };

test('a demo turn streams, asks permission, ends, and is in the history after a restart', async () => {
  const { app, page } = await openApp({ env });
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
  const { app: again, page: page2 } = await openApp({ env, db: app.db });
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
  const { app, page } = await openApp({ env });
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
  const { app, page } = await openApp({ env });
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1,
    { message: 'the Demo agent in the picker' });
  await page.getByTestId('cwd-input').fill('/no/such/folder');
  await page.getByTestId('start-session').click();
  const banner = page.getByTestId('error-banner');
  await waitFor(async () => (await banner.count()) === 1, { message: 'the error banner' });
  const text = await banner.textContent();
  if (!text.includes('/no/such/folder') || !text.includes('does not exist')) throw new Error(`banner reads ${text}`);
});

// watchPermissions records in the page whether a permission prompt was ever rendered from now on.
async function watchPermissions(page) {
  await page.evaluate(() => {
    window.__sawPermission = !!document.querySelector('[data-testid=permission]');
    new MutationObserver(() => {
      if (document.querySelector('[data-testid=permission]')) window.__sawPermission = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
}

test('session controls: "Edit automatically" and no thoughts run a turn without any permission', async () => {
  const { app, page } = await openApp({ env });
  await startSession(page, await project());

  const mode = page.locator('[data-testid=config-option][data-config-id=mode]');
  await waitFor(async () => (await mode.count()) === 1, { message: 'the mode picker' });
  const labels = await mode.locator('option').allTextContents();
  if (!labels.includes('Ask before edits') || !labels.includes('Edit automatically')) throw new Error(`mode options ${labels}`);
  if ((await mode.inputValue()) !== 'ask') throw new Error(`mode starts as ${await mode.inputValue()}`);
  await mode.selectOption({ label: 'Edit automatically' });
  await waitFor(async () => (await mode.inputValue()) === 'auto' && (await mode.getAttribute('data-pending')) === null,
    { message: 'the agent to accept mode auto' });

  const thinking = page.locator('[data-testid=config-option][data-config-id=thinking]');
  if (!(await thinking.isChecked())) throw new Error('thinking starts off');
  await page.getByText('Think out loud').click();
  await waitFor(async () => !(await thinking.isChecked()) && (await thinking.getAttribute('data-pending')) === null,
    { message: 'the agent to accept thinking off' });
  if ((await page.getByTestId('mode-picker').count()) !== 0) throw new Error('legacy mode picker shown beside config options');

  await watchPermissions(page);
  await send(page, 'edit without asking');
  await turnEnds(page, 'end_turn');
  if (await page.evaluate(() => window.__sawPermission)) throw new Error('a permission prompt was shown in auto mode');
  const tools = await page.locator('[data-testid=entry][data-kind=tool]').evaluateAll((els) => els.map((e) => e.dataset.status));
  if (tools.length === 0 || tools.some((s) => s !== 'completed')) throw new Error(`tool statuses ${tools}`);
  if ((await page.locator('[data-testid=entry][data-kind=thought]').count()) !== 0) throw new Error('thoughts shown with thinking off');
  if ((await mode.inputValue()) !== 'auto') throw new Error('the mode picker went back');
});

test('slash commands: "/" lists the agent commands, Esc closes the palette without stopping, /review is sent', async () => {
  const { app, page } = await openApp({ env });
  await startSession(page, await project());
  const input = page.getByTestId('composer-input');
  const palette = page.getByTestId('command-palette');
  await input.click();
  await input.press('/');
  await waitFor(async () => (await palette.count()) === 1, { message: 'the command palette' });
  const names = await page.getByTestId('command-item').evaluateAll((els) => els.map((e) => e.dataset.command));
  if (!names.includes('review') || !names.includes('plan')) throw new Error(`palette lists ${names}`);
  await page.locator('[data-testid=command-item][data-command=review]').click();
  await waitFor(async () => (await input.inputValue()) === '/review ', { message: 'the completed command' });
  const hint = await page.getByTestId('command-hint').textContent();
  if (!hint.includes('what to focus on')) throw new Error(`hint reads ${hint}`);
  await input.pressSequentially('the README');
  await page.getByTestId('send').click();

  const user = page.locator('[data-testid=entry][data-kind=user]');
  await waitFor(async () => (await user.count()) === 1, { message: 'the user entry' });
  const sent = (await user.textContent()).trim();
  if (!sent.startsWith('/review')) throw new Error(`the prompt sent reads ${sent}`);

  // While the turn waits on a permission, Esc in the palette only closes the palette.
  const allow = page.locator('[data-testid=permission-option][data-option-kind=allow_once]');
  await waitFor(async () => (await allow.count()) === 1, { timeout: 20_000, message: 'the permission prompt' });
  await input.click();
  await input.press('/');
  await waitFor(async () => (await palette.count()) === 1, { message: 'the palette while running' });
  await input.press('Escape');
  await waitFor(async () => (await palette.count()) === 0, { message: 'the palette to close' });
  if (!(await stateIs(page, 'running'))) throw new Error(`Esc in the palette changed the state to ${await page.getByTestId('session-state').textContent()}`);
  await allow.click();
  await turnEnds(page, 'end_turn');
  if ((await page.locator('[data-testid=turn-end][data-stop-reason=cancelled]').count()) !== 0) throw new Error('the turn was cancelled');

  // Ctrl+K from the prompt box focuses the history search.
  await input.click();
  await page.keyboard.press('Control+K');
  await waitFor(() => page.evaluate(() => document.activeElement?.dataset?.testid === 'history-search'),
    { message: 'Ctrl+K to focus the history search' });
});

test('protocol inspector: after a turn it lists initialize (out) and session/prompt', async () => {
  const { app, page } = await openApp({ env });
  await startSession(page, await project());
  await page.getByTestId('inspector-toggle').click();
  const inspector = page.getByTestId('inspector');
  await waitFor(async () => (await inspector.count()) === 1, { message: 'the inspector panel' });
  const init = inspector.locator('[data-testid=inspector-row][data-direction=out][data-method=initialize]');
  await waitFor(async () => (await init.count()) === 1, { message: 'the initialize row' });

  await send(page, 'inspect me');
  const allow = page.locator('[data-testid=permission-option][data-option-kind=allow_once]');
  await waitFor(async () => (await allow.count()) === 1, { timeout: 20_000, message: 'the permission prompt' });
  await allow.click();
  await turnEnds(page, 'end_turn');
  // Refreshed after the turn end without a click.
  const prompt = inspector.locator('[data-testid=inspector-row][data-direction=out][data-method="session/prompt"]');
  await waitFor(async () => (await prompt.count()) === 1, { message: 'the session/prompt row' });
  const permission = inspector.locator('[data-testid=inspector-row][data-direction=in][data-method="session/request_permission"]');
  if ((await permission.count()) !== 1) throw new Error('no session/request_permission row');

  await init.locator('button').click();
  const json = await inspector.getByTestId('inspector-json').textContent();
  if (!json.includes('"method": "initialize"')) throw new Error(`expanded JSON reads ${json.slice(0, 200)}`);
  const before = await inspector.getByTestId('inspector-row').count();
  await inspector.getByTestId('inspector-refresh').click();
  await waitFor(async () => (await inspector.getByTestId('inspector-row').count()) >= before, { message: 'the refreshed list' });
});

test('deleting a saved session removes it from the history, also after a reload; the live session goes on', async () => {
  const { app, page } = await openApp({ env });
  await startSession(page, await project());
  await page.locator('[data-testid=config-option][data-config-id=mode]').selectOption('auto');
  await waitFor(async () => (await page.locator('[data-testid=config-option][data-config-id=mode][data-pending]').count()) === 0,
    { message: 'mode auto' });
  await send(page, 'to be deleted');
  await turnEnds(page, 'end_turn');
  const item = page.getByTestId('history-item');
  await waitFor(async () => (await item.count()) === 1, { message: 'the session in the history' });
  const id = await item.getAttribute('data-session-id');

  await item.hover();
  await page.locator(`[data-testid=history-delete][data-session-id="${id}"]`).click();
  await page.getByTestId('history-delete-confirm').click();
  await waitFor(async () => (await item.count()) === 0, { message: 'the item to disappear' });

  // The live session keeps running.
  await waitFor(() => stateIs(page, 'idle'), { message: 'the live session still idle' });
  await send(page, 'still alive');
  await turnEnds(page, 'end_turn', 2);

  await page.reload();
  await page.waitForFunction(() => window.go?.main?.History && window.runtime, null, { timeout: 15_000 });
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1,
    { message: 'the page to load again' });
  const listed = await page.evaluate(async () => (await window.go.main.History.ListHistory('')).map((h) => h.id));
  if (listed.includes(id)) throw new Error(`the deleted session ${id} is listed again after a reload`);
  await waitFor(async () => (await page.getByTestId('history-list').locator('.empty').count()) === 1,
    { message: 'an empty history list' });
  if ((await item.count()) !== 0) throw new Error('the deleted session is back in the list');
});

await import('./security.mjs');
await import('./hardstop.mjs');
await import('./attachments.mjs');
await import('./agents.mjs');
await import('./history.mjs');
await import('./opentools.mjs');
await import('./sessions.mjs');
await import('./continue.mjs');
await import('./fork.mjs');
await import('./folders.mjs');
await import('./queue.mjs');
await import('./elicitation.mjs');
await import('./changes.mjs');
await import('./usage.mjs');
await import('./rules.mjs');
await import('./registry.mjs');
await import('./presets.mjs');
await import('./terminals.mjs');
await import('./subagents.mjs');
await import('./prompts.mjs');
await import('./agentsessions.mjs');
await import('./worktrees.mjs');
await import('./compare.mjs');
await run();
