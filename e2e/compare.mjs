// One task to several agents in the window (issue 33): in a real repository, "Give one task to
// several agents…" gives a prompt and a check command to the Demo agent (playing one script) and
// a custom agent (this binary's demo-agent playing another), each in a worktree of its own; the
// comparison view lists both side by side with their files and their check's exit code (one
// passes, one fails); Review & apply on the winner brings its files into the person's tree byte
// for byte. With COMPARE_SHOTS=<dir> the dialog and the view are photographed at 800x600 and
// 1920x1080, light and dark. Registered by run.mjs.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_BIN, test, openApp, waitFor } from './lib/harness.mjs';
import { git, notesEditingAgent, project, scriptedAgent, shoot } from './lib/ui.mjs';

const SHOTS = process.env.COMPARE_SHOTS;
const ORIGINAL = 'line one\nline two\nline three\n';
const WINNER = 'line one\nline 2, by the winner\nline three\n';

test('one task to two agents: the comparison shows both with their checks, and the winner applies', async () => {
  const dir = await project();
  git(dir, 'init', '-q', '-b', 'main');
  await writeFile(path.join(dir, 'notes.txt'), ORIGINAL);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'one');

  // The Demo agent writes notes.txt and added.txt (the check wants added.txt); the other only notes.txt.
  const { page } = await openApp({ env: await scriptedAgent(notesEditingAgent('compare-demo', WINNER)) });
  const other = path.join(path.dirname(dir), 'other-agent.json');
  await writeFile(other, JSON.stringify([
    { expect: 'initialize' }, { reply: { protocolVersion: 1, agentCapabilities: {} } },
    { expect: 'session/new' }, { reply: { sessionId: 'compare-other' } },
    { expect: 'session/prompt' },
    { call: 'terminal/create', params: { command: 'sh', args: ['-c', "printf 'line one\\nline 2, by the other\\nline three\\n' > notes.txt"] }, want: 'term-1' },
    { call: 'terminal/wait_for_exit', params: { terminalId: 'term-1' } },
    { reply: { stopReason: 'end_turn' } },
    { expect: 'never' },
  ]));
  await page.evaluate(async ([command, args]) => window.go.main.Agents.SaveAgent({ id: '', name: 'Other', command, args, env: [], folder: '', version: '' }),
    [APP_BIN, `demo-agent --script '${other}'`]);
  await page.reload();
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=other]').count()) === 1, { message: 'the Other agent' });
  await page.getByTestId('cwd-input').fill(dir);

  await page.getByTestId('compare-start').click();
  const dialog = page.getByTestId('compare-dialog');
  await waitFor(async () => (await dialog.count()) === 1, { message: 'the comparison dialog' });
  await dialog.locator('[data-testid=compare-agent][data-agent-id=demo] input').check();
  await dialog.locator('[data-testid=compare-agent][data-agent-id=other] input').check();
  await dialog.getByTestId('compare-prompt').fill('fix the notes');
  await dialog.getByTestId('compare-check').fill('test -f added.txt && echo passed');
  await shoot(page, SHOTS, 'compare-dialog');
  await dialog.getByTestId('compare-confirm').click();

  const view = page.getByTestId('compare-view');
  const rows = view.getByTestId('compare-row');
  await waitFor(async () => (await rows.count()) === 2, { timeout: 20_000, message: 'two rows in the comparison view' });
  await waitFor(async () => (await rows.evaluateAll((els) => els.map((e) => e.dataset.checkExit))).join(',') === '0,1',
    { timeout: 30_000, message: "the demo's check passed and the other's failed" });
  const files = await rows.evaluateAll((els) => els.map((e) => e.dataset.files));
  if (files.join(',') !== '2,1') throw new Error(`the rows' files: ${files}`);
  if ((await page.getByTestId('live-session').count()) !== 2) throw new Error('the two sessions are not in the Live group');
  if ((await readFile(path.join(dir, 'notes.txt'), 'utf8')) !== ORIGINAL) throw new Error("the comparison changed the person's notes.txt");
  await shoot(page, SHOTS, 'compare-view');

  // Review & apply on the winner: its files, byte for byte.
  await rows.first().getByTestId('compare-apply').click();
  const apply = page.getByTestId('apply-dialog');
  await waitFor(async () => (await apply.getByTestId('apply-file').count()) === 2, { message: "the winner's two files to apply" });
  await apply.getByTestId('apply-confirm').click();
  await waitFor(async () => (await apply.getByTestId('apply-done').count()) === 1, { message: 'the apply done' });
  if ((await readFile(path.join(dir, 'notes.txt'), 'utf8')) !== WINNER) throw new Error("notes.txt is not the winner's");
  if ((await readFile(path.join(dir, 'added.txt'), 'utf8')) !== 'made by the agent\n') throw new Error("added.txt is not the winner's");
});
