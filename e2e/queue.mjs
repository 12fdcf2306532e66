// Prompts while the agent works (issue 16): a prompt typed while a turn runs is queued
// (queued-prompt above the composer, Send saying Queue), then sent as the next turn once the turn
// ends. The scripted agent holds its first turn on a permission request, so the prompt is
// certainly queued during the turn, and checks nothing reaches it before the turn's end.
// Registered by run.mjs.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { project, scriptedAgent, send, startSession, turnEnds } from './lib/ui.mjs';

const steps = [
  { expect: 'initialize' }, { reply: { protocolVersion: 1, agentCapabilities: {} } },
  { expect: 'session/new' }, { reply: { sessionId: 'queue-1' } },
  { expect: 'session/prompt' },
  { update: { sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit main.go', kind: 'edit', status: 'pending' } },
  { call: 'session/request_permission', params: { toolCall: { toolCallId: 'edit-1' },
    options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }] }, want: '"optionId":"yes"' },
  { update: { sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed' } },
  { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'First turn done.' } } },
  { reply: { stopReason: 'end_turn' } },
  { expect: 'session/prompt' },
  { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Running the tests now.' } } },
  { reply: { stopReason: 'end_turn' } },
];

test('queued prompt sent after the turn', async () => {
  const { app, page } = await openApp({ env: await scriptedAgent(steps) });
  await startSession(page, await project());
  await send(page, 'edit main.go');
  await waitFor(async () => (await page.getByTestId('permission').count()) === 1, { message: 'the permission prompt' });

  // The turn runs: Send still works, and queues.
  const sendButton = page.getByTestId('send');
  await page.getByTestId('composer-input').fill('then run the tests');
  if (!(await sendButton.isEnabled()) || !(await sendButton.textContent()).includes('Queue')) {
    throw new Error('Send is not offered as Queue during the turn');
  }
  await sendButton.click();
  const queued = page.getByTestId('queued-prompt');
  await waitFor(async () => (await queued.count()) === 1, { message: 'the queued prompt' });
  if (!(await queued.textContent()).includes('then run the tests')) throw new Error('the queued prompt shows other text');
  if ((await page.locator('[data-testid=entry][data-kind=user]').count()) !== 1) throw new Error('the queued prompt was sent during the turn');

  await page.locator('[data-testid=permission-option][data-option-kind=allow_once]').click();
  await turnEnds(page, 'end_turn', 2);
  await waitFor(async () => (await queued.count()) === 0, { message: 'the queue empty once sent' });
  const users = await page.locator('[data-testid=entry][data-kind=user]').allTextContents();
  if (users.length !== 2 || !users[1].includes('then run the tests')) throw new Error(`the user entries are ${JSON.stringify(users)}`);
  await waitFor(async () => (await page.locator('[data-testid=entry][data-kind=agent]').last().textContent())?.includes('Running the tests now.'),
    { message: "the agent's answer to the queued prompt" });
});
