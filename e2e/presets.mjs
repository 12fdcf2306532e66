// Presets people can adjust, through the real UI and backend (issue 31). Gemini CLI is not
// installed here: the picker offers its install, and Start asks before installing anything
// (Cancel installs nothing). Its override, opened from its button in the agent editor
// (preset-override), chooses this binary's demo-agent as the user's own command, with arguments
// and a default folder: the preset then runs a whole turn that way. Reset (preset-reset) makes
// it the pinned, not-installed preset again, and agents.json keeps no override. With
// PRESET_SHOTS=<dir>, the override form and the install question are photographed at 800x600
// and 1920x1080, light and dark. Registered by run.mjs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_BIN, test, openApp, waitFor } from './lib/harness.mjs';
import { allowOnce, project, send, shoot, stateIs, turnEnds } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '15ms', AGENTDESK_NO_KEYRING: '1' };
const SHOTS = process.env.PRESET_SHOTS;

const option = (page, id) => page.locator(`[data-testid=agent-option][data-agent-id=${id}]`);

test('override a preset in the window, run it, and reset it', async () => {
  const { app, page } = await openApp({ env });
  const folder = await project();
  await waitFor(async () => (await option(page, 'gemini').count()) === 1, { message: 'the presets in the picker' });
  if (!(await option(page, 'gemini').textContent()).includes('installs 0.61.0 on start')) throw new Error('gemini does not offer its pinned install');

  // Start asks first, naming the package and the version; Cancel installs nothing.
  await page.getByTestId('agent-picker').selectOption('gemini');
  await page.getByTestId('cwd-input').fill(folder);
  await page.getByTestId('start-session').click();
  const ask = page.getByTestId('preset-install-confirm');
  await waitFor(async () => (await ask.count()) === 1, { message: 'the install question' });
  const words = await ask.textContent();
  if (!words.includes('@google/gemini-cli') || (await page.getByTestId('preset-install-version').textContent()) !== '0.61.0') {
    throw new Error(`the install question: ${words}`);
  }
  await shoot(page, SHOTS, 'preset-install');
  await page.getByTestId('preset-install-cancel').click();
  await waitFor(async () => (await ask.count()) === 0, { message: 'the question gone on Cancel' });

  // The override: the user's own command (this binary's demo-agent), its arguments and folder.
  await page.getByTestId('agents-manage').click();
  await page.locator('[data-testid=preset-override][data-agent-id=gemini]').click();
  const form = page.locator('[data-testid=preset-override-form][data-agent-id=gemini]');
  await waitFor(async () => (await form.count()) === 1, { message: 'the override form' });
  if ((await page.getByTestId('preset-args').inputValue()) !== '--acp') throw new Error('the form does not show the preset\'s arguments');
  await page.getByTestId('preset-command').fill(APP_BIN);
  await page.getByTestId('preset-args').fill('demo-agent --pace 0s');
  await page.getByTestId('preset-folder').fill(folder);
  await page.getByTestId('preset-save').click();
  await waitFor(async () => (await page.getByTestId('preset-reset').count()) === 1, { message: 'Reset offered once overridden' });
  await shoot(page, SHOTS, 'preset-override');
  const file = await readFile(path.join(app.dir, 'config', 'agentdesk', 'agents.json'), 'utf8');
  if (!file.includes('"overrides"') || !file.includes('demo-agent')) throw new Error(`agents.json:\n${file}`);
  await page.keyboard.press('Escape');

  await waitFor(async () => !(await option(page, 'gemini').isDisabled()) && !(await option(page, 'gemini').textContent()).includes('installs'),
    { message: 'gemini available through its own command' });
  await page.getByTestId('agent-picker').selectOption('gemini');
  await page.getByTestId('start-session').click();
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'the overridden preset idle' });
  await send(page, 'hello preset');
  await allowOnce(page);
  await turnEnds(page, 'end_turn');

  // Reset: the preset as it ships, nothing of the override kept.
  await page.getByTestId('agents-manage').click();
  await page.locator('[data-testid=preset-override][data-agent-id=gemini]').click();
  await page.getByTestId('preset-reset').click();
  await waitFor(async () => (await page.getByTestId('preset-reset').count()) === 0, { message: 'Reset done' });
  // The form reloads the override after the preset's new state comes back (presets.svelte.ts):
  // wait for it rather than read it the moment Reset goes.
  await waitFor(async () => (await page.getByTestId('preset-command').inputValue()) === '' &&
    (await page.getByTestId('preset-args').inputValue()) === '--acp', { message: 'the form shows the preset as it ships after Reset' });
  await page.keyboard.press('Escape');
  await waitFor(async () => (await option(page, 'gemini').textContent()).includes('installs 0.61.0 on start'), { message: 'gemini pinned again' });
  const after = await readFile(path.join(app.dir, 'config', 'agentdesk', 'agents.json'), 'utf8');
  if (after.includes('demo-agent')) throw new Error(`agents.json keeps the override:\n${after}`);
});
