// The usage ledger after a real demo turn: the history sidebar's Usage button opens the view,
// which charts the day's turn on a canvas (chart.js) and lists the Demo agent; Back returns to
// the session. Registered by run.mjs.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { allowOnce, project, send, startSession, stateIs, turnEnds } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '5ms' };

test('usage: after a demo turn the usage view charts it and lists the agent', async () => {
  const { app, page } = await openApp({ env });
  await startSession(page, await project());
  await send(page, 'count my usage');
  await allowOnce(page);
  await turnEnds(page, 'end_turn');
  await waitFor(() => stateIs(page, 'idle'), { message: 'idle after the turn' });

  await page.getByTestId('usage-open').click();
  await waitFor(async () => (await page.getByTestId('usage-view').count()) === 1, { message: 'the usage view' });
  const canvas = page.locator('[data-testid=usage-chart] canvas');
  await waitFor(async () => (await canvas.count()) === 2, { message: 'the usage charts' });
  // chart.js has drawn: the canvas is sized and holds painted pixels.
  await waitFor(
    () =>
      canvas.first().evaluate((c) => {
        if (!c.width || !c.height) return false;
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return true;
        return false;
      }),
    { message: 'a drawn chart' },
  );
  const agents = page.locator('[data-testid=usage-breakdown][data-by=agent] [data-testid=usage-row]');
  await waitFor(async () => (await agents.count()) === 1, { message: 'one agent row' });
  const text = await agents.first().textContent();
  if (!text.includes('Demo agent')) throw new Error(`the agent row reads ${text}`);
  const totals = await page.getByTestId('usage-totals').textContent();
  if (!/Turns\s*1/.test(totals)) throw new Error(`totals read ${totals}`);
  // The Demo agent reports tokens in its answer to the prompt: the receipt carried them here.
  if (!/Tokens\s*[0-9]/.test(totals)) throw new Error(`no tokens in the totals: ${totals}`);

  await page.getByTestId('usage-back').click();
  await waitFor(async () => (await page.getByTestId('usage-view').count()) === 0, { message: 'back from the usage view' });
  await waitFor(async () => (await page.getByTestId('composer-input').count()) === 1, { message: 'the session again' });
});
