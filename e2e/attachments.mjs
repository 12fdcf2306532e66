// Attachments end to end (issue #5): a file of the session folder picked with the attach button
// and an image pasted into the prompt go to the Demo agent, which says what it received; the user
// entry shows both as chips (the image as a thumbnail), live and in the history after a restart.
// An agent that does not accept images gets no image, and the person is told why. Registered by
// run.mjs.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, openApp, waitFor } from './lib/harness.mjs';
import { allowOnce, project, scriptedAgent, startSession, turnEnds } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '15ms' };
const NOTES = '# Notes\n\nRemember the milk.\n';

/** Pastes a w×h PNG named screenshot.png into the prompt box, as a clipboard with only an image. */
async function pasteImage(page, w = 640, h = 480) {
  await page.getByTestId('composer-input').evaluate(
    async (el, [w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const g = canvas.getContext('2d');
      g.fillStyle = '#3b82f6';
      g.fillRect(0, 0, w, h);
      g.fillStyle = '#fff';
      g.fillRect(w / 4, h / 4, w / 2, h / 2);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
      const dt = new DataTransfer();
      dt.items.add(new File([blob], 'screenshot.png', { type: 'image/png' }));
      el.focus();
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    [w, h],
  );
}

/** The chips of the user entries: [kind, name, has a data: thumbnail]. */
async function userChips(page) {
  return page.locator('[data-testid=entry][data-kind=user] [data-testid=attachment]').evaluateAll((els) =>
    els.map((e) => [e.dataset.kind, e.dataset.name, !!e.querySelector('img[src^="data:image/png;base64,"]')]),
  );
}

const WANT_CHIPS = JSON.stringify([
  ['file', 'notes.md', false],
  ['image', 'screenshot.png', true],
]);
const ACK = `I see 2 attachments: notes.md (embedded, ${NOTES.length} B), a PNG image (640×480).`;

test('a session file and a pasted image reach the Demo agent and show in the transcript and the history', async () => {
  const { app, page } = await openApp({ env });
  const dir = await project();
  await writeFile(path.join(dir, 'notes.md'), NOTES);
  await writeFile(path.join(dir, 'main.go'), 'package main\n');
  await startSession(page, dir);

  // The attach button opens the picker with its search field focused; the keyboard picks.
  await page.getByTestId('attach').click();
  const search = page.getByTestId('attach-search');
  await waitFor(() => search.evaluate((el) => el === document.activeElement), { message: 'the search field focused' });
  await waitFor(async () => (await page.getByTestId('attach-option').count()) === 2, { message: 'the two files listed' });
  await search.fill('note');
  await waitFor(async () => (await page.getByTestId('attach-option').count()) === 1, { message: 'the list filtered' });
  await search.press('Enter');
  await waitFor(async () => (await page.getByTestId('file-picker').count()) === 0, { message: 'the picker closed' });

  await pasteImage(page);
  const chips = page.locator('[data-testid=attachments] [data-testid=attachment]');
  await waitFor(async () => (await chips.count()) === 2, { message: 'two chips in the composer' });
  const names = await chips.evaluateAll((els) => els.map((e) => `${e.dataset.kind}:${e.dataset.name}`));
  if (names.join() !== 'file:notes.md,image:screenshot.png') throw new Error(`composer chips: ${names}`);

  await page.getByTestId('composer-input').fill('what are these?');
  await page.getByTestId('send').click();
  await waitFor(async () => (await chips.count()) === 0, { message: 'the chips cleared once sent' });
  await allowOnce(page);
  await turnEnds(page, 'end_turn');

  if (JSON.stringify(await userChips(page)) !== WANT_CHIPS) throw new Error(`user entry chips: ${JSON.stringify(await userChips(page))}`);
  const said = await page.locator('[data-testid=entry][data-kind=agent]').allTextContents();
  if (!said.some((t) => t.includes(ACK))) throw new Error(`no acknowledgement "${ACK}" in:\n${said.join('\n')}`);

  // After a restart the saved session shows the same.
  await app.stop();
  const { app: again, page: page2 } = await openApp({ env, db: app.db });
  const item = page2.getByTestId('history-item');
  await waitFor(async () => (await item.count()) === 1, { message: 'the saved session in the history' });
  await item.click();
  await waitFor(async () => JSON.stringify(await userChips(page2)) === WANT_CHIPS, { message: 'the saved user entry with its attachments' });
  const saved = await page2.locator('[data-testid=entry][data-kind=agent]').allTextContents();
  if (!saved.some((t) => t.includes(ACK))) throw new Error(`the saved transcript lacks the acknowledgement:\n${saved.join('\n')}`);
});

test('an agent that does not accept images gets no pasted image, and the person is told why', async () => {
  // A scripted agent without the image capability: it starts a session and waits.
  const steps = [
    { expect: 'initialize' }, { reply: { protocolVersion: 1, agentCapabilities: { promptCapabilities: { embeddedContext: true } } } },
    { expect: 'session/new' }, { reply: { sessionId: 'no-images-1' } },
  ];
  const { app, page } = await openApp({ env: { ...env, ...(await scriptedAgent(steps)) } });
  await startSession(page, await project());
  await pasteImage(page, 32, 32);
  const note = page.getByTestId('attach-note');
  await waitFor(async () => (await note.count()) === 1, { message: 'the note' });
  const text = await note.textContent();
  if (!text.includes('does not accept images')) throw new Error(`note reads: ${text}`);
  if ((await page.getByTestId('attachment').count()) !== 0) throw new Error('an image chip was added');
});
