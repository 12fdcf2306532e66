// Subagent sessions (issue 31): the Demo agent, asked to, delegates to two subagents. Each shows as
// a card in its parent's transcript (subagent, data-session-id, data-parent-id), with Cancel where
// the agent lets it be cancelled (subagent-cancel); cancelling one ends it alone while the turn
// and the other run on; the history nests both under their parent, and a card opens the child's
// own transcript, saved under its own id.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { liveRows, project, send, startSession, turnEnds } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '40ms' }; // the long subagent works ~5 s: time to cancel it

test('subagents: a tree under the parent, one cancelled alone', async () => {
  const { page } = await openApp({ env });
  await startSession(page, await project());
  const parentId = await liveRows(page).first().getAttribute('data-session-id');
  await send(page, 'use subagents');

  const cards = page.locator('[data-testid=transcript] [data-testid=subagent]');
  await waitFor(async () => (await cards.count()) === 2, { timeout: 20_000, message: 'two subagent cards' });
  for (const i of [0, 1]) {
    if ((await cards.nth(i).getAttribute('data-parent-id')) !== parentId) throw new Error(`card ${i} names another parent`);
  }
  const explore = cards.filter({ hasText: 'Explore' });
  const review = cards.filter({ hasText: 'Review' });
  const exploreId = await explore.getAttribute('data-session-id');
  const reviewId = await review.getAttribute('data-session-id');

  await explore.getByTestId('subagent-cancel').click();
  await waitFor(async () => (await explore.getAttribute('data-state')) === 'idle', { timeout: 20_000, message: 'Explore stopped' });
  if (!(await explore.textContent()).includes('cancelled')) throw new Error(`Explore reads ${await explore.textContent()}`);
  await turnEnds(page, 'end_turn', 1);
  if (!(await review.textContent()).includes('done')) throw new Error(`Review reads ${await review.textContent()}`);
  if ((await page.locator('[data-testid=transcript] [data-testid=subagent-cancel]').count()) !== 0) throw new Error('Cancel offered on a child that is done');

  // The history nests both children under the parent.
  const marks = page.locator('[data-testid=history-list] [data-testid=subagent]');
  await waitFor(async () => (await marks.count()) === 2, { timeout: 20_000, message: 'the children in the history' });
  const nested = await marks.evaluateAll((els) => els.map((e) => [e.dataset.sessionId, e.dataset.parentId]).sort());
  const want = [[exploreId, parentId], [reviewId, parentId]].sort();
  if (JSON.stringify(nested) !== JSON.stringify(want)) throw new Error(`history marks ${JSON.stringify(nested)}, want ${JSON.stringify(want)}`);

  // A card opens the child's own transcript.
  await review.getByTestId('subagent-open').click();
  const entries = page.locator('[data-testid=transcript] [data-testid=entry]');
  await waitFor(async () => (await entries.allTextContents()).join(' ').includes('Read NOTES.md and say what to change'), { timeout: 20_000, message: "the child's transcript" });
  if ((await page.locator('[data-testid=transcript] [data-testid=subagent]').count()) !== 0) throw new Error("the child's transcript shows its parent's cards");
});
