// The change ledger in the window (issue 17): a scripted agent's turn really changes files in
// the session's folder on disk (a command in a terminal, not fs/*); the turn ends with its
// Changes card, a file opens its diff, and Revert turn -> preview -> Confirm puts the folder back
// byte for byte; Undo puts the turn's work back; a file changed after the turn makes the preview
// show the conflict and offer no Confirm; the session's Changes view lists the turn and the
// revert. Registered by run.mjs.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, openApp, waitFor } from './lib/harness.mjs';
import { notesEditingAgent, project, scriptedAgent, send, startSession, turnEnds } from './lib/ui.mjs';

const ORIGINAL = 'line one\nline two\nline three\n';
const EDITED = 'line one\nline 2, by the agent\nline three\n';

const steps = notesEditingAgent('changes-e2e', EDITED);

async function exists(p) {
  return stat(p).then(
    () => true,
    () => false,
  );
}

test('a turn that edits files on disk shows its Changes card; a revert from the window restores them', async () => {
  const dir = await project();
  const notes = path.join(dir, 'notes.txt');
  const added = path.join(dir, 'added.txt');
  await writeFile(notes, ORIGINAL);

  const { app, page } = await openApp({ env: await scriptedAgent(steps) });
  await startSession(page, dir);
  await send(page, 'edit the notes');
  await turnEnds(page, 'end_turn');
  if ((await readFile(notes, 'utf8')) !== EDITED) throw new Error('the agent did not edit notes.txt');

  // The card at the end of the turn lists both files.
  const card = page.locator('[data-testid=turn-changes][data-turn="1"]');
  await waitFor(async () => (await card.count()) === 1, { message: 'the Changes card of turn 1' });
  const rows = await card.getByTestId('changed-file').evaluateAll((els) => els.map((e) => `${e.dataset.change} ${e.dataset.path}`));
  if (rows.join(',') !== 'added added.txt,modified notes.txt') throw new Error(`the card lists ${JSON.stringify(rows)}`);
  const notesRow = card.locator('[data-testid=changed-file][data-path="notes.txt"]');
  const counts = await notesRow.textContent();
  if (!counts.includes('+1') || !counts.includes('\u22121')) throw new Error(`the notes.txt row reads ${counts}`);

  // Its diff: the hunk with the agent's line.
  await notesRow.getByTestId('changed-file-open').click();
  const diff = notesRow.getByTestId('file-diff');
  await waitFor(async () => (await diff.count()) === 1 && (await diff.textContent()).includes('line 2, by the agent'), { message: "notes.txt's diff" });
  if ((await diff.getByTestId('revert-hunk').count()) !== 1) throw new Error('no revert button on the hunk');

  // Revert the turn: preview first, nothing written until Confirm.
  await card.getByTestId('revert-turn').click();
  const preview = card.getByTestId('revert-preview');
  await waitFor(async () => (await preview.count()) === 1 && (await preview.getByTestId('revert-confirm').count()) === 1, { message: 'the revert preview' });
  const planned = await preview.getByTestId('revert-plan-file').evaluateAll((els) => els.map((e) => `${e.dataset.action} ${e.dataset.path}`).sort());
  if (planned.join(',') !== 'delete added.txt,restore notes.txt') throw new Error(`the preview plans ${JSON.stringify(planned)}`);
  if ((await readFile(notes, 'utf8')) !== EDITED) throw new Error('the preview changed notes.txt');
  await preview.getByTestId('revert-confirm').click();
  await waitFor(async () => (await card.getByTestId('revert-done').count()) === 1, { message: 'the revert done' });
  if ((await readFile(notes, 'utf8')) !== ORIGINAL) throw new Error(`notes.txt reads ${JSON.stringify(await readFile(notes, 'utf8'))} after the revert`);
  if (await exists(added)) throw new Error('added.txt is still there after the revert');

  // Undo puts the turn's work back.
  await card.getByTestId('revert-undo').click();
  await waitFor(async () => (await card.getByTestId('revert-done').textContent()).includes('undone'), { message: 'the undo' });
  if ((await readFile(notes, 'utf8')) !== EDITED || !(await exists(added))) throw new Error('the undo did not put the turn back');

  // A change made after the turn is a conflict: shown, and no Confirm.
  await writeFile(notes, 'the person edited this\n');
  await card.getByTestId('revert-turn').click();
  const conflict = preview.locator('[data-testid=revert-conflict][data-path="notes.txt"]');
  await waitFor(async () => (await conflict.count()) === 1, { message: 'the conflict in the preview' });
  if ((await preview.getByTestId('revert-confirm').count()) !== 0) throw new Error('Confirm offered for a conflicted revert');
  await preview.getByTestId('revert-cancel').click();
  if ((await readFile(notes, 'utf8')) !== 'the person edited this\n') throw new Error('a conflicted preview changed notes.txt');

  // The session's Changes view lists the turn and its revert; Back returns to the transcript.
  await page.getByTestId('changes-open').click();
  const view = page.getByTestId('changes-view');
  await waitFor(async () => (await view.getByTestId('changes-turn').count()) === 1, { message: 'the Changes view' });
  // The revert (undone) and its undo, each recorded.
  await waitFor(async () => (await view.getByTestId('changes-revert').count()) === 2, { message: 'the reverts in the Changes view' });
  if ((await view.locator('[data-testid=changes-revert][data-undone]').count()) !== 1) throw new Error('the revert is not shown undone');
  if ((await view.locator('[data-testid=turn-changes][data-turn="1"] [data-testid=changed-file]').count()) !== 2) throw new Error('the view lists other files');
  await view.getByTestId('changes-back').click();
  await waitFor(async () => (await page.getByTestId('transcript').count()) === 1 && (await view.count()) === 0, { message: 'back to the transcript' });
});
