// UI steps shared by the e2e test files, by the data-testid contract (architecture.md, "UI test
// contract"), and scripted agents for them.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempDir, waitFor } from './harness.mjs';

/** A fresh, empty project folder for a session, removed after the test. */
export async function project() {
  return tempDir('agentdesk-project-');
}

/** git in dir, as a person with a fixed name and no configuration of their own; what it printed. */
export function git(dir, ...args) {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

export async function stateIs(page, state) {
  return (await page.getByTestId('session-state').textContent())?.trim() === state;
}

/** startSession picks the Demo agent and a folder, presses Start and waits for idle. */
export async function startSession(page, cwd) {
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1,
    { message: 'the Demo agent in the picker' });
  await page.getByTestId('agent-picker').selectOption('demo');
  await page.getByTestId('cwd-input').fill(cwd);
  await page.getByTestId('start-session').click();
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'session state idle' });
}

export async function send(page, text) {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('send').click();
}

export async function turnEnds(page, reason, count = 1) {
  await waitFor(async () => (await page.locator(`[data-testid=turn-end][data-stop-reason=${reason}]`).count()) === count,
    { timeout: 20_000, message: `${count} turn end(s) with ${reason}` });
}

/**
 * Photographs page as dir/name-WxH-scheme.png at 800x600 and 1920x1080, light and dark, then
 * puts the page back (1280x800, light); nothing when dir is unset (the screenshots are asked for
 * by an environment variable of the test file).
 */
export async function shoot(page, dir, name) {
  if (!dir) return;
  for (const [w, h] of [[800, 600], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(dir, `${name}-${w}x${h}-${scheme}.png`), animations: 'disabled', caret: 'hide' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The shown session's "allow once" option of its permission prompt. */
export function allowOption(page) {
  return page.locator('[data-testid=permission-option][data-option-kind=allow_once]');
}

/** Waits for the shown session's one permission prompt and allows it once. */
export async function allowOnce(page) {
  const option = allowOption(page);
  await waitFor(async () => (await option.count()) === 1, { timeout: 20_000, message: 'the permission prompt' });
  await option.click();
}

/**
 * The script of an agent whose one turn (session id `id`) writes `edited` into notes.txt and
 * creates added.txt, through a shell in a terminal (not fs/*), then ends the turn.
 */
export function notesEditingAgent(id, edited) {
  return [
    { expect: 'initialize' },
    { reply: { protocolVersion: 1, agentCapabilities: {} } },
    { expect: 'session/new' },
    { reply: { sessionId: id } },
    { expect: 'session/prompt' },
    {
      call: 'terminal/create',
      params: { command: 'sh', args: ['-c', `printf '${edited.replace(/\n/g, '\\n')}' > notes.txt && printf 'made by the agent\\n' > added.txt`] },
      want: 'term-1',
    },
    { call: 'terminal/wait_for_exit', params: { terminalId: 'term-1' } },
    { reply: { stopReason: 'end_turn' } },
    { expect: 'never' },
  ];
}

/**
 * Env for startApp that makes the Demo agent play `steps` (an acptest script: see
 * backend/acp/acptest/script.go) instead of its demo. Only the dev-tag binary e2e runs reads
 * AGENTDESK_E2E_AGENT_SCRIPT (e2e_agent_dev.go).
 */
export async function scriptedAgent(steps) {
  const file = path.join(await tempDir('agentdesk-script-'), 'agent-script.json');
  await writeFile(file, JSON.stringify(steps, null, 1));
  return { AGENTDESK_E2E_AGENT_SCRIPT: file };
}

/** The live-session rows of the sidebar's Live group, in start order. */
export function liveRows(page) {
  return page.getByTestId('live-session');
}

/** Shows the live session of row `index` (0: the first started). */
export async function selectLive(page, index) {
  await liveRows(page).nth(index).locator('button').first().click();
  await waitFor(async () => (await liveRows(page).nth(index).locator('[aria-current=true]').count()) === 1,
    { message: `live session ${index} shown` });
}

/** The data-state of live row `index` (starting, ready, working, waiting, stopping, failed, exited). */
export async function liveState(page, index) {
  return liveRows(page).nth(index).getAttribute('data-state');
}

/** Waits until live row `index` reads `state`. */
export async function liveStateIs(page, index, state, timeout = 20_000) {
  await waitFor(async () => (await liveState(page, index)) === state, { timeout, message: `live session ${index} ${state}` });
}
