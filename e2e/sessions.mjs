// Several live sessions at once (issue 15): two Demo agent sessions side by side in the Live
// group, each answered after switching back and forth, one stopped while the other runs, both in
// the history with their badges; and a Start during a running turn leaves the first session
// live and answerable (it used to replace it and orphan its agent).
import { test, startApp, launchBrowser, openPage, waitFor } from './lib/harness.mjs';
import { liveRows, liveStateIs, project, selectLive, send, startSession, stateIs } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '15ms' };

/** Waits for the shown session's permission prompt and allows it once. */
async function allow(page) {
  const option = page.locator('[data-testid=permission-option][data-option-kind=allow_once]');
  await waitFor(async () => (await option.count()) === 1, { timeout: 20_000, message: 'the permission prompt' });
  await option.click();
}

async function turnEnds(page, reason, count) {
  await waitFor(async () => (await page.locator(`[data-testid=turn-end][data-stop-reason=${reason}]`).count()) === count,
    { timeout: 20_000, message: `${count} turn end(s) with ${reason}` });
}

test('two demo sessions at once: each answered after switching, one stopped while the other runs, both in the history', async () => {
  const app = await startApp({ env });
  const page = await openPage(await launchBrowser(), app.url);

  await startSession(page, await project());
  await send(page, 'alpha');
  await liveStateIs(page, 0, 'waiting');

  await startSession(page, await project());
  if ((await liveRows(page).count()) !== 2) throw new Error('Start replaced the first session');
  await liveStateIs(page, 0, 'waiting'); // still live in the background
  await send(page, 'beta');
  await liveStateIs(page, 1, 'waiting');

  // Back to the first: its prompt is there; answering it ends its turn, the second still waits.
  await selectLive(page, 0);
  await allow(page);
  await turnEnds(page, 'end_turn', 1);
  await liveStateIs(page, 0, 'ready');
  if ((await liveRows(page).nth(1).getAttribute('data-state')) !== 'waiting') throw new Error('the second session did not wait');

  // A second turn in the first, then the second's answer: its turn ends while the first runs.
  await send(page, 'alpha again');
  await liveStateIs(page, 0, 'waiting');
  await selectLive(page, 1);
  await allow(page);
  await turnEnds(page, 'end_turn', 1);
  await liveStateIs(page, 1, 'ready');
  await send(page, 'beta again');
  await liveStateIs(page, 1, 'waiting');

  // Stop the first while the second runs.
  await selectLive(page, 0);
  await waitFor(() => stateIs(page, 'running'), { message: 'the first session running' });
  await page.getByTestId('stop').click();
  await turnEnds(page, 'cancelled', 1);
  await liveStateIs(page, 0, 'ready');
  if ((await liveRows(page).nth(1).getAttribute('data-state')) !== 'waiting') throw new Error('stopping the first disturbed the second');
  await selectLive(page, 1);
  await allow(page);
  await turnEnds(page, 'end_turn', 2);
  await liveStateIs(page, 1, 'ready');

  // Both in the history, with the last turn's outcome.
  const items = page.getByTestId('history-item');
  await waitFor(async () => (await items.count()) === 2, { message: 'both sessions in the history' });
  await waitFor(async () => {
    const texts = await items.allTextContents();
    const alpha = texts.find((t) => t.includes('alpha'));
    const beta = texts.find((t) => t.includes('beta'));
    return alpha?.includes('cancelled') && beta?.includes('end turn');
  }, { message: 'the history badges: cancelled for the first, end turn for the second' });

  // Close the second (idle: at once); the history keeps it.
  await liveRows(page).nth(1).getByTestId('close-session').click();
  await waitFor(async () => (await liveRows(page).count()) === 1, { message: 'the closed session to leave the Live group' });
  if ((await items.count()) !== 2) throw new Error('closing a session removed it from the history');
});

test('Start with a turn running leaves the first session live and answerable', async () => {
  const app = await startApp({ env });
  const page = await openPage(await launchBrowser(), app.url);
  await startSession(page, await project());
  await send(page, 'first');
  await liveStateIs(page, 0, 'waiting');

  await startSession(page, await project());
  await waitFor(async () => (await liveRows(page).count()) === 2, { message: 'two live sessions' });
  await selectLive(page, 0);
  await allow(page);
  await turnEnds(page, 'end_turn', 1);
  await liveStateIs(page, 0, 'ready');

  // Closing a session while its turn runs asks first.
  await send(page, 'again');
  await liveStateIs(page, 0, 'waiting');
  await liveRows(page).nth(0).getByTestId('close-session').click();
  await waitFor(async () => (await page.getByTestId('close-confirm').count()) === 1, { message: 'the close confirmation' });
  if ((await liveRows(page).count()) !== 2) throw new Error('the session closed without asking');
  await page.getByTestId('close-confirm-ok').click();
  await waitFor(async () => (await liveRows(page).count()) === 1, { timeout: 20_000, message: 'the closed session to leave' });
  await waitFor(() => stateIs(page, 'idle'), { message: 'the second session shown' });
});
