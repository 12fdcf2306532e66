// Several live sessions at once (issue 15): two Demo agent sessions side by side in the Live
// group, each answered after switching back and forth, one stopped while the other runs, both in
// the history with their badges; a Start during a running turn leaves the first session
// live and answerable (it used to replace it and orphan its agent); and Cancel ends a start
// that hangs, leaving no agent process, no row and no error behind; a SIGTERM while a turn waits
// on a permission quits at once, the agent gone and the session saved.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { APP_BIN, test, openApp, waitFor } from './lib/harness.mjs';
import { allowOnce, liveRows, liveStateIs, project, scriptedAgent, selectLive, send, startSession, stateIs, turnEnds } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '15ms' };

test('two demo sessions at once: each answered after switching, one stopped while the other runs, both in the history', async () => {
  const { app, page } = await openApp({ env });

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
  await allowOnce(page);
  await turnEnds(page, 'end_turn', 1);
  await liveStateIs(page, 0, 'ready');
  if ((await liveRows(page).nth(1).getAttribute('data-state')) !== 'waiting') throw new Error('the second session did not wait');

  // A second turn in the first, then the second's answer: its turn ends while the first runs.
  await send(page, 'alpha again');
  await liveStateIs(page, 0, 'waiting');
  await selectLive(page, 1);
  await allowOnce(page);
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
  await allowOnce(page);
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
  const { app, page } = await openApp({ env });
  await startSession(page, await project());
  await send(page, 'first');
  await liveStateIs(page, 0, 'waiting');

  await startSession(page, await project());
  await waitFor(async () => (await liveRows(page).count()) === 2, { message: 'two live sessions' });
  await selectLive(page, 0);
  await allowOnce(page);
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

/**
 * The pids of the agent processes playing `script` (demo-agent with AGENTDESK_E2E_AGENT_SCRIPT=script
 * in its environment: the app itself has it too, but is not demo-agent). Processes that end while
 * they are read are skipped.
 */
async function agentsPlaying(script) {
  const pids = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const [cmdline, environ] = await Promise.all([readFile(`/proc/${name}/cmdline`, 'utf8'), readFile(`/proc/${name}/environ`, 'utf8')]);
      if (cmdline.split('\0').includes('demo-agent') && environ.split('\0').includes(`AGENTDESK_E2E_AGENT_SCRIPT=${script}`)) pids.push(name);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

test('Cancel a start that hangs: the agent is gone, the row too, one calm line and no error', async () => {
  // The Demo agent plays a script that waits for session/new and so never answers initialize.
  const hang = await scriptedAgent([{ expect: 'session/new' }]);
  const { app, page } = await openApp({ env: { ...env, ...hang } });
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1,
    { message: 'the Demo agent in the picker' });
  await page.getByTestId('agent-picker').selectOption('demo');
  await page.getByTestId('cwd-input').fill(await project());
  await page.getByTestId('start-session').click();
  await liveStateIs(page, 0, 'starting');
  const pids = await waitFor(async () => {
    const found = await agentsPlaying(hang.AGENTDESK_E2E_AGENT_SCRIPT);
    return found.length > 0 && found;
  }, { message: 'the hanging agent process' });

  await page.getByTestId('start-cancel').click();
  await waitFor(async () => (await liveRows(page).count()) === 0, { timeout: 20_000, message: 'the cancelled session to leave' });
  const note = page.getByTestId('status-note');
  await waitFor(async () => (await note.count()) === 1, { message: 'the calm line' });
  if (!(await note.textContent()).includes('Start cancelled.')) throw new Error(`the line reads ${await note.textContent()}`);
  if ((await page.getByTestId('error-banner').count()) !== 0) throw new Error(`an error: ${await page.getByTestId('error-banner').textContent()}`);

  // CancelStart returned once the agent had gone: no process is left, not even a zombie.
  const left = pids.filter((pid) => existsSync(`/proc/${pid}`));
  if (left.length > 0) throw new Error(`agent processes left behind: ${left.join(', ')}`);
  if ((await agentsPlaying(hang.AGENTDESK_E2E_AGENT_SCRIPT)).length > 0) throw new Error('an agent process is left behind');
  // A start that never was leaves no history row.
  await waitFor(async () => (await page.getByTestId('history-item').count()) === 0, { message: 'no history row' });
});

test('SIGTERM while a turn waits on a permission quits at once: no question, the agent gone, the session saved', async () => {
  const asking = await scriptedAgent([
    { expect: 'initialize' }, { reply: { protocolVersion: 1, agentCapabilities: {} } },
    { expect: 'session/new' }, { reply: { sessionId: 'asking-1' } },
    { expect: 'session/prompt' },
    { call: 'session/request_permission', params: { toolCall: { toolCallId: 'w1', title: 'Write a.go', kind: 'edit' },
      options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] }, want: 'outcome' },
    { expect: 'session/cancel' },
  ]);
  const { app, page } = await openApp({ env: { ...env, ...asking } });
  await startSession(page, await project());
  await send(page, 'write it');
  await waitFor(async () => (await page.getByTestId('permission').count()) === 1, { message: 'the permission card' });
  if ((await agentsPlaying(asking.AGENTDESK_E2E_AGENT_SCRIPT)).length === 0) throw new Error('the agent is not running');

  app.proc.kill('SIGTERM');
  const { code, signal } = await app.exited; // before: the close was refused to ask the page, and the app ran on
  if (code !== 0) throw new Error(`the app exited with ${code ?? signal}`);
  if ((await agentsPlaying(asking.AGENTDESK_E2E_AGENT_SCRIPT)).length > 0) throw new Error('an agent process outlived the app');
  const { stdout } = await promisify(execFile)(APP_BIN, ['history', '--db', app.db]);
  if (!/write it/.test(stdout)) throw new Error(`the session is not in the history:\n${stdout}`);
});
