// A turn that ends around an open tool call (issue #5; acp-client.md §7): Gemini CLI never
// closes a call the user rejected, and ends the turn. The card must not stay "Pending" under a
// finished turn: it says "Not completed", next to the rejection, live and in the history.
// Registered by run.mjs.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { project, scriptedAgent, send, startSession, turnEnds } from './lib/ui.mjs';

const steps = [
  { expect: 'initialize' }, { reply: { protocolVersion: 1, agentCapabilities: {} } },
  { expect: 'session/new' }, { reply: { sessionId: 'gemini-like-1' } },
  { expect: 'session/prompt' },
  { update: { sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit main.go', kind: 'edit', status: 'pending',
    locations: [{ path: 'main.go', line: 3 }] } },
  { call: 'session/request_permission', params: { toolCall: { toolCallId: 'edit-1' },
    options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] },
    want: '"optionId":"no"' },
  { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Understood, I left main.go alone.' } } },
  { reply: { stopReason: 'end_turn' } },
];

test('a rejected call the agent never closes says "Not completed" once the turn ends, also in the history', async () => {
  const { app, page } = await openApp({ env: await scriptedAgent(steps) });
  await startSession(page, await project());
  await send(page, 'rename the variable');
  await waitFor(async () => (await page.getByTestId('permission').count()) === 1, { message: 'the permission prompt' });
  await page.locator('[data-testid=permission-option][data-option-kind=reject_once]').click();
  await turnEnds(page, 'end_turn');

  const check = async (p, where) => {
    const card = p.locator('[data-testid=entry][data-kind=tool]');
    await waitFor(async () => (await card.getAttribute('data-status')) === 'incomplete', { message: `the card not completed (${where})` });
    const status = await card.getByTestId('tool-status').textContent();
    const decision = await card.getByTestId('permission-decision').textContent();
    if (status !== 'Not completed' || !decision.includes('Rejected')) {
      throw new Error(`${where}: the card says "${status}" and "${decision}"`);
    }
  };
  await check(page, 'live');

  await page.getByTestId('history-item').first().click();
  await check(page, 'history');
});
