// Plans by id and the agent's own sessions, archived, through the real UI and backend (issue
// 31), with the Demo agent playing a script: it keeps two plans by id (one updated in place,
// one removed), then lists two sessions of its own; Archive on one asks session/archive and the
// session leaves the list. With AGENT_SESSIONS_SHOTS=<dir>, the plans and the list are
// photographed at 800x600 and 1920x1080, light and dark. Registered by run.mjs.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { project, scriptedAgent, send, shoot, startSession, turnEnds } from './lib/ui.mjs';

const SHOTS = process.env.AGENT_SESSIONS_SHOTS;

const plan = (p) => ({ update: { sessionUpdate: 'plan_update', plan: p } });

test('plans by id change in place, and an agent session is archived from its list', async () => {
  const folder = await project();
  const steps = [
    { expect: 'initialize' }, { reply: { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { list: {}, archive: {} } } } },
    { expect: 'session/new' }, { reply: { sessionId: 'live-1' } },
    { expect: 'session/prompt' },
    plan({ type: 'items', planId: 'build', entries: [{ content: 'Read the failing test', priority: 'high', status: 'in_progress' }] }),
    plan({ type: 'markdown', planId: 'notes', content: '## Notes\nThe flake is a **race** in the writer.' }),
    plan({ type: 'items', planId: 'build', entries: [
      { content: 'Read the failing test', priority: 'high', status: 'completed' },
      { content: 'Fix the race', priority: 'high', status: 'in_progress' }] }),
    plan({ type: 'file', planId: 'draft', uri: 'file:///tmp/PLAN.md' }),
    { update: { sessionUpdate: 'plan_removed', planId: 'draft' } },
    { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Two plans, one withdrawn.' } } },
    { reply: { stopReason: 'end_turn' } },
    { expect: 'session/list' }, { reply: { sessions: [
      { sessionId: 'old-1', cwd: folder, title: 'Fix the flaky test', updatedAt: new Date().toISOString() },
      { sessionId: 'old-2', cwd: folder, title: 'Port the parser' }] } },
    { expect: 'session/archive' }, { reply: {} },
  ];
  const { page } = await openApp({ env: await scriptedAgent(steps) });
  await startSession(page, folder);
  await send(page, 'make a plan');
  await turnEnds(page, 'end_turn');

  const plans = page.locator('[data-testid=entry][data-kind=plan]');
  await waitFor(async () => (await plans.count()) === 3, { message: 'one entry per plan id' });
  const build = page.locator('[data-kind=plan][data-plan-id=build]');
  if (!(await build.textContent()).includes('1 of 2 done')) throw new Error(`the build plan was not changed in place: ${await build.textContent()}`);
  if ((await page.locator('[data-kind=plan][data-plan-id=draft]').getAttribute('data-removed')) !== 'true') throw new Error('the draft plan is not marked removed');
  await shoot(page, SHOTS, 'plans');

  await page.getByTestId('agent-menu').click();
  await page.getByTestId('agent-sessions-open').click();
  const items = page.getByTestId('agent-session-item');
  await waitFor(async () => (await items.count()) === 2, { message: "the agent's two sessions" });
  await shoot(page, SHOTS, 'agent-sessions');
  await page.locator('[data-agent-session-id=old-2] [data-testid=agent-session-archive]').click();
  await waitFor(async () => (await items.count()) === 1, { message: 'the archived session gone from the list' });
  if ((await items.first().getAttribute('data-agent-session-id')) !== 'old-1') throw new Error('the wrong session left the list');
});
