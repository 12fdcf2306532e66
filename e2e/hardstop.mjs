// The last rung of the stop ladder (architecture.md, "Stop ladder"; acp-client.md, "Escalation"),
// driven through the UI: an agent that takes the prompt and then ignores session/cancel. Stop
// leaves the turn cancelling; after the grace period the UI offers Hard stop, which kills the
// agent's process group and ends the turn interrupted; Restart agent brings the session back.
// Registered by run.mjs.
import { readdir, readFile } from 'node:fs/promises';
import { test, startApp, launchBrowser, openPage, waitFor } from './lib/harness.mjs';
import { project, scriptedAgent, send, startSession, stateIs, turnEnds } from './lib/ui.mjs';

/** App.svelte's HARD_STOP_GRACE_MS: how long a cancel may take before Hard stop is offered. */
const GRACE_MS = 10_000;

// Starts, takes the prompt, says it is working, reads the session/cancel and neither answers the
// prompt nor stops: the scripted agent then only waits for its stdin to close. Replayed from the
// top when the agent is restarted (no loadSession: the session continues as a new one).
const stubborn = [
  { expect: 'initialize' }, { reply: { protocolVersion: 1, agentCapabilities: {} } },
  { expect: 'session/new' }, { reply: { sessionId: 'stubborn-1' } },
  { expect: 'session/prompt' },
  { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Working on it, and I will not stop.' } } },
  { expect: 'session/cancel' },
];

/** Pids of the app's child processes that are an agent (`… demo-agent …`), from /proc. */
async function agentPids(appPid) {
  const pids = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/PID/stat is the parent pid; the command name before it may hold spaces.
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== appPid) continue;
      const argv = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0');
      if (argv.includes('demo-agent')) pids.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

test('hard stop: an agent that ignores Stop is killed after the grace period, the turn ends interrupted, Restart agent continues', async () => {
  const app = await startApp({ env: await scriptedAgent(stubborn) });
  const ctx = await launchBrowser();
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  // A controllable clock that otherwise runs in real time, so the grace period can be skipped.
  await page.clock.install();
  await openPage(ctx, app.url);
  await startSession(page, await project());
  const [agent] = await waitFor(async () => {
    const pids = await agentPids(app.proc.pid);
    return pids.length === 1 && pids;
  }, { message: 'one agent process' });

  await send(page, 'do something long');
  await waitFor(() => stateIs(page, 'running'), { message: 'state running' });
  const said = page.locator('[data-testid=entry][data-kind=agent]');
  await waitFor(async () => (await said.textContent())?.includes('will not stop'), { message: "the agent's message" });

  // Stop: the cancel is sent, the agent ignores it, the turn stays open.
  await page.getByTestId('stop').click();
  await waitFor(() => stateIs(page, 'cancelling'), { message: 'state cancelling' });
  const hardStop = page.getByTestId('hard-stop');
  if ((await hardStop.count()) !== 0) throw new Error('Hard stop is offered before the grace period');
  if ((await page.getByTestId('turn-end').count()) !== 0) throw new Error('the turn ended although the agent did not answer');
  if (!(await page.getByTestId('stop').isDisabled())) throw new Error('Stop is still enabled while cancelling');

  // After the grace period Hard stop appears; the agent is still there and the turn still open.
  await page.clock.fastForward(GRACE_MS + 1_000);
  await waitFor(async () => (await hardStop.count()) === 1 && (await hardStop.isEnabled()), { message: 'the Hard stop button' });
  if (!(await stateIs(page, 'cancelling'))) throw new Error('the state left cancelling before the hard stop');
  if ((await agentPids(app.proc.pid)).join() !== String(agent)) throw new Error('the agent process went away before the hard stop');

  await hardStop.click();
  await turnEnds(page, 'interrupted');
  await waitFor(() => stateIs(page, 'exited'), { message: 'state exited' });
  await waitFor(async () => (await agentPids(app.proc.pid)).length === 0, { message: 'the agent process to be gone' });
  if ((await hardStop.count()) !== 0) throw new Error('Hard stop is still offered after the agent was killed');
  if ((await page.getByTestId('turn-end').count()) !== 1) throw new Error('more than one turn end');

  // Restart agent: a new agent process, the same session in the UI, idle and ready for a prompt.
  const restart = page.getByTestId('continue-session');
  await waitFor(async () => (await restart.count()) === 1, { message: 'the Restart agent button' });
  await restart.click();
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'state idle after Restart agent' });
  const after = await waitFor(async () => {
    const pids = await agentPids(app.proc.pid);
    return pids.length === 1 && pids;
  }, { message: 'one new agent process' });
  if (after[0] === agent) throw new Error('Restart agent did not start a new agent process');
  if ((await restart.count()) !== 0) throw new Error('Restart agent is still offered on an idle session');
  if ((await said.count()) !== 1) throw new Error('the transcript before the hard stop is gone');
  await page.getByTestId('composer-input').fill('next');
  if (!(await page.getByTestId('send').isEnabled())) throw new Error('Send is not enabled after the restart');
});
