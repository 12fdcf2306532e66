// What the person gives an agent beside a prompt: the house rules of an agent in a folder (ACP's
// client system prompt), edited from the start page and the agent menu, reaching the Demo agent;
// and the agent's suggested next prompts, as chips under the composer.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { allowOnce, project, send, startSession, stateIs, turnEnds } from './lib/ui.mjs';

const env = { AGENTDESK_DEMO_PACE: '15ms' };

test('house rules written before a start reach the agent, and the agent menu shows them again', async () => {
  const { page } = await openApp({ env });
  const dir = await project();
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1,
    { message: 'the Demo agent in the picker' });
  await page.getByTestId('agent-picker').selectOption('demo');
  await page.getByTestId('cwd-input').fill(dir);
  await page.getByTestId('house-rules-open').click();
  const field = page.getByTestId('system-prompt');
  await waitFor(async () => await field.isEnabled(), { message: 'the house rules editor' });
  await field.fill('Answer in French.\nNever push to main.');
  await page.getByTestId('system-prompt-save').click();
  await waitFor(async () => (await page.getByTestId('house-rules').count()) === 0, { message: 'the editor closes on save' });

  await page.getByTestId('start-session').click();
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'session state idle' });
  await send(page, 'hello');
  await allowOnce(page);
  await turnEnds(page, 'end_turn');
  const said = await page.locator('[data-testid=entry][data-kind=agent]').allTextContents();
  if (!said.some((t) => t.includes('the first says: "Answer in French."'))) throw new Error(`the agent said ${said.join(' | ')}`);

  await page.getByTestId('agent-menu').click();
  await page.getByTestId('agent-house-rules').click();
  await waitFor(async () => (await field.inputValue()) === 'Answer in French.\nNever push to main.', { message: 'the saved rules' });
  if ((await page.getByTestId('system-prompt-unsupported').count()) !== 0) throw new Error('the Demo agent takes house rules');
  await page.getByTestId('system-prompt-cancel').click();
});

test('a suggested prompt fills the composer when clicked, and goes when the next turn starts', async () => {
  const { page } = await openApp({ env });
  await startSession(page, await project());
  await send(page, 'hello');
  await allowOnce(page);
  await turnEnds(page, 'end_turn');
  const chips = page.getByTestId('prompt-suggestion');
  await waitFor(async () => (await chips.count()) === 2, { message: 'two suggestion chips' });
  const text = await chips.first().textContent();
  await chips.first().click();
  const input = page.getByTestId('composer-input');
  if ((await input.inputValue()) !== text) throw new Error(`the composer holds ${await input.inputValue()}, not ${text}`);
  if ((await page.locator('[data-testid=entry][data-kind=user]').count()) !== 1) throw new Error('a click sent the suggestion');
  await page.getByTestId('send').click();
  await waitFor(async () => (await chips.count()) === 0, { message: 'the chips go when the turn starts' });
  await allowOnce(page);
  await turnEnds(page, 'end_turn', 2);

  // The Demo agent answered auth/status after its initialize: the picker says so once it reads the list again.
  await page.getByTestId('agent-picker').focus();
  const demo = page.locator('[data-testid=agent-option][data-agent-id=demo]');
  await waitFor(async () => (await demo.getAttribute('data-sign-in')) === 'no sign-in needed', { message: 'the sign-in state in the picker' });
});
