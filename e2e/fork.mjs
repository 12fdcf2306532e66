// Edit and rerun (issue 16): a user message's edit action opens an inline editor; Enter reruns
// the edited text in a new session linked to the original, which stays as it was; the new
// session's header links back to it (fork-link), and the history marks the fork and counts it.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { allowOnce, liveRows, project, send, startSession, turnEnds } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '15ms' };

test('edit-and-rerun creates a linked session', async () => {
  const { app, page } = await openApp({ env });
  await startSession(page, await project());
  await send(page, 'before the edit');
  await allowOnce(page);
  await turnEnds(page, 'end_turn', 1);
  const parentId = await liveRows(page).first().getAttribute('data-session-id');

  const message = page.locator('[data-testid=entry][data-kind=user]').first();
  await message.hover();
  await message.getByTestId('message-edit').click();
  const editor = page.getByTestId('message-editor').locator('textarea');
  await waitFor(async () => (await editor.inputValue()) === 'before the edit', { message: 'the editor with the message' });
  await editor.fill('after the edit');
  await editor.press('Enter');

  await waitFor(async () => (await liveRows(page).count()) === 2, { timeout: 20_000, message: 'the rerun as a second live session' });
  const link = page.getByTestId('fork-link');
  await waitFor(async () => (await link.count()) === 1, { timeout: 20_000, message: 'the fork-link in the new session header' });
  if ((await link.getAttribute('data-parent-id')) !== parentId) throw new Error('the fork-link names another parent');
  const text = await link.textContent();
  if (!text.includes('turn 1')) throw new Error(`fork-link reads ${JSON.stringify(text)}`);
  await allowOnce(page);
  await turnEnds(page, 'end_turn', 1);
  const users = await page.locator('[data-testid=entry][data-kind=user]').allTextContents();
  if (users.length !== 1 || !users[0].includes('after the edit')) throw new Error(`the rerun's prompts: ${JSON.stringify(users)}`);

  // The history marks the child and counts the parent's forks.
  await waitFor(async () => (await page.getByTestId('history-fork').count()) === 1, { message: 'the fork marker in the history' });
  await waitFor(async () => (await page.getByTestId('history-forks').count()) === 1, { message: "the parent's fork count" });

  // The link opens the original, untouched.
  await link.click();
  await waitFor(async () => (await page.getByTestId('fork-link').count()) === 0, { message: 'the parent shown' });
  const original = await page.locator('[data-testid=entry][data-kind=user]').allTextContents();
  if (original.length !== 1 || !original[0].includes('before the edit')) throw new Error(`the original's prompts: ${JSON.stringify(original)}`);
});
