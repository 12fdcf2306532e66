// Real terminals in the window (issue 19): a scripted agent runs commands in terminals of ours,
// on a PTY. The card shows the command's colours as styled spans while markup it prints stays
// text; the person clicks the running terminal's output, types a line that the command reads,
// and stops a second command with the card's Ctrl-C; session search finds what a terminal
// printed. Registered by run.mjs.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { project, scriptedAgent, send, startSession, turnEnds } from './lib/ui.mjs';

/** Prints colours and markup, then asks for a name and greets it. */
export const GREETER = String.raw`printf '\033[1;32mPASS\033[0m build \033[31mFAIL\033[0m lint <img src=x onerror=window.__pwned=1>\n'; printf 'name? '; read -r name; echo "hello $name, zebrafish"`;

/** An agent whose one turn runs the greeter, then a sleep it waits for until it is interrupted. */
export const terminalSteps = [
  { expect: 'initialize' },
  { reply: { protocolVersion: 1, agentCapabilities: {} } },
  { expect: 'session/new' },
  { reply: { sessionId: 'terminals-e2e' } },
  { expect: 'session/prompt' },
  { call: 'terminal/create', params: { command: GREETER }, want: 'term-1' },
  {
    update: { sessionUpdate: 'tool_call', toolCallId: 'run-1', title: 'Run the greeter', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term-1' }] },
  },
  { call: 'terminal/wait_for_exit', params: { terminalId: 'term-1' } },
  { update: { sessionUpdate: 'tool_call_update', toolCallId: 'run-1', status: 'completed' } },
  { call: 'terminal/create', params: { command: 'echo waiting for Ctrl-C; exec sleep 100' }, want: 'term-2' },
  {
    update: { sessionUpdate: 'tool_call', toolCallId: 'run-2', title: 'Wait', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term-2' }] },
  },
  { call: 'terminal/wait_for_exit', params: { terminalId: 'term-2' }, want: 'SIGINT' },
  { update: { sessionUpdate: 'tool_call_update', toolCallId: 'run-2', status: 'failed' } },
  { reply: { stopReason: 'end_turn' } },
  { expect: 'never' },
];

test('a terminal card shows colours, takes typed input and Ctrl-C, and its output is searchable', async () => {
  const { app, page } = await openApp({ env: await scriptedAgent(terminalSteps) });
  await startSession(page, await project());
  await send(page, 'run the greeter');

  const first = page.locator('[data-testid=terminal][data-terminal-id=term-1]');
  const out = first.getByTestId('terminal-output');
  await waitFor(async () => (await out.count()) === 1 && (await out.textContent()).includes('name? '), { message: "the greeter's prompt" });
  if ((await out.locator('span.ansi-green-fg', { hasText: 'PASS' }).count()) !== 1) throw new Error(`no green PASS in ${await out.innerHTML()}`);
  if ((await out.locator('span.ansi-red-fg', { hasText: 'FAIL' }).count()) !== 1) throw new Error('no red FAIL');
  if ((await out.locator('img').count()) !== 0 || !(await out.textContent()).includes('<img src=x onerror=window.__pwned=1>')) {
    throw new Error(`the printed markup is not text: ${await out.innerHTML()}`);
  }

  // Type into it: the command reads the line (and the terminal echoes it).
  await out.click();
  await waitFor(async () => (await first.getByTestId('terminal-input').textContent()).includes('Typing goes to the command'), { message: 'the typing hint' });
  await page.keyboard.type('world');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await first.getByTestId('terminal-exit').count()) === 1, { message: 'the greeter ends' });
  const text = await first.textContent();
  if (!text.includes('name? world\nhello world, zebrafish') || (await first.getByTestId('terminal-input').count()) !== 0) {
    throw new Error(`the greeter's card reads ${JSON.stringify(text)}`);
  }

  // Ctrl-C from the second card's button.
  const second = page.locator('[data-testid=terminal][data-terminal-id=term-2]');
  await waitFor(async () => (await second.getByTestId('terminal-interrupt').count()) === 1, { message: "the sleep's Ctrl-C" });
  await second.getByTestId('terminal-interrupt').click();
  await turnEnds(page, 'end_turn');
  const exit = await second.getByTestId('terminal-exit').textContent();
  if (exit !== 'Killed by SIGINT') throw new Error(`the sleep ended: ${exit}`);
  if (await page.evaluate(() => window.__pwned)) throw new Error('the printed markup ran');

  // Session search finds a word only the terminal printed.
  await page.getByTestId('history-search').fill('zebrafish');
  await waitFor(async () => (await page.getByTestId('history-item').count()) === 1, { message: 'the session found by terminal output' });
});
