// Elicitation in the window (issue 16): the Demo agent's "ask me" puts a form in the transcript;
// the required field is checked before anything is sent, the form is answered, the card settles
// to a summary that masks the secret, and the agent's reply shows what it received. Registered by
// run.mjs.
import { test, openApp, waitFor } from './lib/harness.mjs';
import { project, send, startSession, turnEnds } from './lib/ui.mjs';

test('form elicitation answered in the window', async () => {
  const { app, page } = await openApp();
  await startSession(page, await project());
  await send(page, 'ask me');
  const card = page.locator('[data-testid=elicitation][data-mode=form]');
  await waitFor(async () => (await card.count()) === 1, { message: 'the form elicitation card' });
  const field = (name) => card.locator(`[data-testid=elicitation-field][data-name=${name}] input`).first();

  // Required and empty: Accept sends nothing and says why.
  await card.getByTestId('elicitation-accept').click();
  await waitFor(async () => (await card.locator('[aria-invalid=true]').count()) >= 1, { message: 'the required name marked invalid' });
  if ((await card.getAttribute('data-state')) !== 'open') throw new Error('an invalid form was sent');

  await field('name').fill('Ada');
  await field('token').fill('tok-e2e-secret-99');
  await card.getByTestId('elicitation-accept').click();
  await waitFor(async () => (await card.getAttribute('data-state')) === 'accepted', { message: 'the card settled as accepted' });
  await turnEnds(page, 'end_turn');
  const reply = await page.locator('[data-testid=entry][data-kind=agent]').last().textContent();
  if (!reply.includes('Ada') || !reply.includes('a secret of 17 characters')) throw new Error(`the agent's reply is ${JSON.stringify(reply)}`);
  if ((await page.content()).includes('tok-e2e-secret-99')) throw new Error('the secret is on the page after the answer');
});
