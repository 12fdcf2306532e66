// Continue a saved session after the app restarts (issue 15): the saved session opens from the
// history, Continue makes it live again under the same id, the transcript shows a boundary
// saying how the agent came to know the earlier turns (the Demo agent cannot load sessions, so
// it is given a summary), and the next turn is saved to the same history row.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { allowOnce, liveRows, project, send, startSession, turnEnds } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '15ms' };

test('continue a saved session after an app restart: same id, a summary boundary, the next turn saved', async () => {
  const { app, page } = await openApp({ env });
  await startSession(page, await project());
  await send(page, 'before the restart');
  await allowOnce(page);
  await turnEnds(page, 'end_turn', 1);
  await app.stop();

  const { app: again, page: page2 } = await openApp({ env, db: app.db });
  const item = page2.getByTestId('history-item');
  await waitFor(async () => (await item.count()) === 1, { message: 'the saved session in the history' });
  const id = await item.getAttribute('data-session-id');
  if ((await liveRows(page2).count()) !== 0) throw new Error('a session was live right after the restart');
  await item.click();
  await turnEnds(page2, 'end_turn', 1);

  await page2.getByTestId('continue-session').click();
  await waitFor(async () => (await liveRows(page2).count()) === 1, { timeout: 20_000, message: 'the session live again' });
  const liveId = await liveRows(page2).first().getAttribute('data-session-id');
  if (liveId !== id) throw new Error(`continued as ${liveId}, want the saved id ${id}`);
  const boundary = page2.getByTestId('context-boundary');
  await waitFor(async () => (await boundary.count()) === 1, { timeout: 20_000, message: 'the context boundary' });
  const kind = await boundary.getAttribute('data-kind');
  if (kind !== 'summarised') throw new Error(`boundary kind ${kind}, want summarised (the Demo agent cannot load sessions)`);
  await waitFor(async () => (await liveRows(page2).first().getAttribute('data-state')) === 'ready',
    { timeout: 20_000, message: 'the continued session ready' });

  // The saved turn's divider stays above the boundary; the new turn follows it.
  const order = await page2.evaluate(() =>
    [...document.querySelectorAll('[data-testid=turn-end], [data-testid=context-boundary]')].map((el) => el.dataset.testid));
  if (order.join(',') !== 'turn-end,context-boundary') throw new Error(`turn end and boundary in the order ${order}`);

  await send(page2, 'after the restart');
  await allowOnce(page2);
  await turnEnds(page2, 'end_turn', 2);
  const users = await page2.locator('[data-testid=entry][data-kind=user]').allTextContents();
  if (!users.some((t) => t.includes('before the restart')) || !users.some((t) => t.includes('after the restart'))) {
    throw new Error(`the user prompts shown: ${JSON.stringify(users)}`);
  }
  await waitFor(async () => (await item.count()) === 1 && (await item.textContent()).includes('2 turns'),
    { message: 'one history row with both turns' });
  if ((await item.getAttribute('data-session-id')) !== id) throw new Error('the history row changed id');
});
