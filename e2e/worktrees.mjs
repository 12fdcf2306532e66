// Sessions in a git worktree in the window (issue 33): in a real repository with uncommitted work,
// the top bar's Worktree switch starts a session in a worktree of its own; a scripted agent's turn
// edits a file and adds one there through a terminal while the person's files stay as they were;
// the worktree bar and the live row show the files changed; Review & apply lists them and, once
// confirmed, brings them into the person's tree byte for byte without a commit; Discard asks, then
// closes the session and leaves git's worktrees and branches as they were. With WORKTREE_SHOTS=<dir>
// the bar and the apply dialog are photographed at 800x600 and 1920x1080, light and dark.
// Registered by run.mjs.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, openApp, waitFor } from './lib/harness.mjs';
import { git, notesEditingAgent, project, scriptedAgent, send, shoot, stateIs, turnEnds } from './lib/ui.mjs';

const SHOTS = process.env.WORKTREE_SHOTS;
const ORIGINAL = 'line one\nline two\nline three\n';
const EDITED = 'line one\nline 2, by the agent\nline three\n';

const steps = notesEditingAgent('worktree-e2e', EDITED);

test('a session in a worktree works apart from your files; Review & apply brings its work in; Discard removes it', async () => {
  const dir = await project();
  git(dir, 'init', '-q', '-b', 'main');
  await writeFile(path.join(dir, 'notes.txt'), ORIGINAL);
  await writeFile(path.join(dir, 'mine.txt'), 'committed\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'one');
  await writeFile(path.join(dir, 'mine.txt'), 'the person is editing this\n'); // uncommitted work of theirs
  const before = git(dir, 'status', '--porcelain') + git(dir, 'worktree', 'list') + git(dir, 'branch');

  const { page } = await openApp({ env: await scriptedAgent(steps) });
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1, { message: 'the Demo agent' });
  await page.getByTestId('agent-picker').selectOption('demo');
  await page.getByTestId('cwd-input').fill(dir);
  const toggle = page.getByTestId('worktree-toggle');
  await waitFor(async () => !(await toggle.isDisabled()), { message: 'the Worktree switch enabled for a repository' });
  if ((await toggle.getAttribute('aria-checked')) !== 'false') throw new Error('the switch is on for a folder never used');
  await toggle.click();
  await page.getByTestId('start-session').click();
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'session state idle' });

  const bar = page.getByTestId('worktree-bar');
  await waitFor(async () => (await bar.count()) === 1 && (await bar.textContent()).includes('agentdesk/s-'), { message: 'the worktree bar with its branch' });
  await send(page, 'edit the notes');
  await turnEnds(page, 'end_turn');
  const status = bar.getByTestId('worktree-status');
  await waitFor(async () => (await status.getAttribute('data-dirty')) === '2', { message: 'two files changed in the worktree' });
  const row = page.getByTestId('live-session').getByTestId('worktree-status');
  await waitFor(async () => (await row.getAttribute('data-dirty')) === '2', { message: "the live row's worktree status" });
  if ((await readFile(path.join(dir, 'notes.txt'), 'utf8')) !== ORIGINAL) throw new Error("the agent's turn changed the person's notes.txt");
  if ((await stat(path.join(dir, 'added.txt')).catch(() => null)) !== null) throw new Error("added.txt is in the person's tree before apply");
  await shoot(page, SHOTS, 'worktree-bar');

  // Review & apply: the files and what happens to each; nothing written before Apply.
  await bar.getByTestId('apply-session').click();
  const dialog = page.getByTestId('apply-dialog');
  await waitFor(async () => (await dialog.getByTestId('apply-file').count()) === 2, { message: 'the two files in the apply dialog' });
  const planned = await dialog.getByTestId('apply-file').evaluateAll((els) => els.map((e) => `${e.dataset.action} ${e.dataset.path}`).sort());
  if (planned.join(',') !== 'write added.txt,write notes.txt') throw new Error(`the dialog plans ${JSON.stringify(planned)}`);
  await shoot(page, SHOTS, 'apply-dialog');
  await dialog.getByTestId('apply-confirm').click();
  await waitFor(async () => (await dialog.getByTestId('apply-done').count()) === 1, { message: 'the apply done' });
  if ((await readFile(path.join(dir, 'notes.txt'), 'utf8')) !== EDITED) throw new Error('notes.txt is not the session’s after apply');
  if ((await readFile(path.join(dir, 'added.txt'), 'utf8')) !== 'made by the agent\n') throw new Error('added.txt is not the session’s after apply');
  if ((await readFile(path.join(dir, 'mine.txt'), 'utf8')) !== 'the person is editing this\n') throw new Error("apply changed the person's own work");
  if (git(dir, 'log', '--oneline').trim().split('\n').length !== 1 || git(dir, 'diff', '--cached') !== '') throw new Error('apply committed or staged');
  await page.keyboard.press('Escape');
  await waitFor(async () => (await dialog.count()) === 0, { message: 'the dialog closed' });

  // Discard asks, then closes the session and removes the worktree and branch.
  await bar.getByTestId('discard-session').click();
  await page.getByTestId('discard-confirm').click();
  await waitFor(async () => (await page.getByTestId('live-session').count()) === 0, { message: 'the session closed by discard' });
  await waitFor(async () => git(dir, 'worktree', 'list').trim().split('\n').length === 1 && git(dir, 'branch') === '* main\n', { message: "git's worktrees and branches as before" });
  const after = git(dir, 'worktree', 'list') + git(dir, 'branch');
  if (!before.endsWith(after)) throw new Error(`after discard: ${after}`);
});
