// Custom agents and logins through the real UI and backend (issue #6). A custom agent is added
// in the agent editor (this binary's own demo-agent, with a secret variable), picked and run for
// a whole turn; its secret never reaches the page or agents.json. A scripted agent that needs a
// login shows its methods, and an env_var login stores the key, restarts the agent with it and
// the turn runs; so does one that asks for the login on the first prompt. Registered by run.mjs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_BIN, test, openApp, waitFor } from './lib/harness.mjs';
import { allowOnce, project, scriptedAgent, send, startSession, stateIs, turnEnds } from './lib/ui.mjs';

// No keyring in tests: secrets go to the 0600 file in the app's temp config folder.
const env = { AGENTDESK_DEMO_PACE: '15ms', AGENTDESK_NO_KEYRING: '1' };
const SECRET = 'tok-e2e-secret-4242';

test('add a custom agent in the UI and run a turn with it', async () => {
  const { app, page } = await openApp({ env });
  const folder = await project();
  await waitFor(async () => (await page.getByTestId('agent-option').count()) > 1, { message: 'the agent list' });

  await page.getByTestId('agents-manage').click();
  const editor = page.getByTestId('agent-editor');
  await waitFor(async () => (await editor.count()) === 1, { message: 'the agent editor' });
  await page.getByTestId('agent-name').fill('My Demo');
  await page.getByTestId('agent-command').fill(APP_BIN);
  await page.getByTestId('agent-args').fill('demo-agent --pace 0s');
  await page.getByTestId('agent-folder').fill(folder);
  await page.getByTestId('agent-env-add').click();
  await page.getByTestId('agent-env-name').fill('MY_TOKEN');
  await page.getByTestId('agent-env-secret').check();
  if ((await page.getByTestId('agent-env-value').getAttribute('type')) !== 'password') throw new Error('the secret field is not masked');
  await page.getByTestId('agent-env-value').fill(SECRET);
  await page.getByTestId('agent-save').click();

  // Saved: listed, the secret shown only as set, and the picker has the agent, picked.
  await waitFor(async () => (await page.getByTestId('agent-env-set').count()) === 1, { message: 'the secret shown as set' });
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=my-demo]').count()) === 1,
    { message: 'the custom agent in the picker' });
  if ((await page.content()).includes(SECRET)) throw new Error('the secret value is in the page');
  const file = await readFile(path.join(app.dir, 'config', 'agentdesk', 'agents.json'), 'utf8');
  if (file.includes(SECRET) || !file.includes('MY_TOKEN')) throw new Error(`agents.json:\n${file}`);
  await page.keyboard.press('Escape');
  await waitFor(async () => (await editor.count()) === 0, { message: 'the editor to close on Escape' });

  if ((await page.getByTestId('agent-picker').inputValue()) !== 'my-demo') throw new Error('the saved agent is not picked');
  if ((await page.getByTestId('cwd-input').inputValue()) !== folder) throw new Error('the default folder was not filled in');
  await page.getByTestId('start-session').click();
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'the custom agent idle' });
  await send(page, 'hello custom agent');
  await allowOnce(page);
  await turnEnds(page, 'end_turn');
});

// A scripted agent (the Demo agent playing an acptest script) that needs a login until
// E2E_ACME_KEY is in its environment, like the Codex adapter's env_var methods.
const loginScript = [
  { expect: 'initialize' },
  {
    reply: {
      protocolVersion: 1,
      agentCapabilities: {},
      authMethods: [
        { id: 'browser', name: 'Log in with a browser', description: 'Opens acme.example in your browser' },
        { id: 'api-key', name: 'Use an API key', type: 'env_var', link: 'https://acme.example/keys', vars: [{ name: 'E2E_ACME_KEY', label: 'Acme key' }] },
        { id: 'cli-login', name: 'Log in in a terminal', type: 'terminal', args: ['auth', 'login'] },
      ],
    },
  },
  { when: 'E2E_ACME_KEY', expect: 'authenticate' },
  { when: 'E2E_ACME_KEY', reply: {} },
  { expect: 'session/new' },
  { when: '!E2E_ACME_KEY', error: { code: -32000, message: 'Authentication required' } },
  { when: 'E2E_ACME_KEY', reply: { sessionId: 'acme-1' } },
  { when: 'E2E_ACME_KEY', expect: 'session/prompt' },
  { when: 'E2E_ACME_KEY', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Logged in with your key.' } } },
  { when: 'E2E_ACME_KEY', reply: { stopReason: 'end_turn' } },
];

/** Picks the login prompt's API-key method, types key into its (masked) field and submits it. */
async function logInWithKey(page, key) {
  await page.locator('[data-testid=auth-method][data-method-id=api-key] button').first().click();
  const field = page.locator('[data-testid=auth-var][data-var=E2E_ACME_KEY]');
  if ((await field.getAttribute('type')) !== 'password') throw new Error('the key field is not masked');
  await field.fill(key);
  await page.getByTestId('auth-submit').click();
  await waitFor(async () => (await page.getByTestId('auth-methods').count()) === 0, { message: 'the login prompt to go' });
}

test('a start that needs a login shows the methods; an API key logs in and the turn runs', async () => {
  const { app, page } = await openApp({ env: { ...env, ...(await scriptedAgent(loginScript)) } });
  await waitFor(async () => (await page.locator('[data-testid=agent-option][data-agent-id=demo]').count()) === 1, { message: 'the picker' });
  await page.getByTestId('agent-picker').selectOption('demo');
  await page.getByTestId('cwd-input').fill(await project());
  await page.getByTestId('start-session').click();

  const methods = page.getByTestId('auth-method');
  await waitFor(async () => (await methods.count()) === 3, { timeout: 20_000, message: 'the three login methods' });
  const types = await methods.evaluateAll((els) => els.map((e) => e.dataset.methodType));
  if (types.join() !== 'agent,env_var,terminal') throw new Error(`method types ${types}`);
  const text = await page.getByTestId('auth-methods').textContent();
  if (!text.includes('Opens acme.example in your browser')) throw new Error(`no description: ${text}`);

  // The terminal method shows the exact command: this binary with the method's arguments.
  await page.locator('[data-testid=auth-method][data-method-id=cli-login] button').first().click();
  const command = await page.getByTestId('auth-command').textContent();
  if (command !== `${APP_BIN} auth login`) throw new Error(`terminal command: ${command}`);

  await logInWithKey(page, 'acme-e2e-key-777');
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'idle after the login' });
  await send(page, 'am I logged in?');
  await turnEnds(page, 'end_turn');
  const reply = await page.locator('[data-testid=entry][data-kind=agent]').last().textContent();
  if (!reply.includes('Logged in with your key.')) throw new Error(`reply: ${reply}`);
  if ((await page.content()).includes('acme-e2e-key-777')) throw new Error('the key is in the page');
});

// A scripted agent that opens sessions logged out and asks for the login when prompted, like
// the Claude Code adapter; with E2E_ACME_KEY in its environment it answers.
const promptLoginScript = [
  { expect: 'initialize' },
  {
    reply: {
      protocolVersion: 1,
      agentCapabilities: {},
      authMethods: [{ id: 'api-key', name: 'Use an API key', type: 'env_var', vars: [{ name: 'E2E_ACME_KEY', label: 'Acme key' }] }],
    },
  },
  { when: 'E2E_ACME_KEY', expect: 'authenticate' },
  { when: 'E2E_ACME_KEY', reply: {} },
  { expect: 'session/new' },
  { reply: { sessionId: 'acme-2' } },
  { expect: 'session/prompt' },
  { when: '!E2E_ACME_KEY', error: { code: -32000, message: 'Authentication required' } },
  { when: 'E2E_ACME_KEY', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Logged in at last.' } } },
  { when: 'E2E_ACME_KEY', reply: { stopReason: 'end_turn' } },
];

test('an agent that asks for the login on the first prompt: the failed turn offers it, and the new session answers', async () => {
  const { app, page } = await openApp({ env: { ...env, ...(await scriptedAgent(promptLoginScript)) } });
  await startSession(page, await project());
  if ((await page.getByTestId('auth-methods').count()) !== 0) throw new Error('a login was offered before any prompt');

  await send(page, 'hello');
  await turnEnds(page, 'error');
  const methods = page.getByTestId('auth-method');
  await waitFor(async () => (await methods.count()) === 1, { message: 'the login method after the failed turn' });
  await logInWithKey(page, 'acme-e2e-key-888');
  await waitFor(async () => (await page.locator('[data-testid=entry]').count()) === 0, { message: 'the new session (an empty transcript)' });
  await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'idle after the login' });

  await send(page, 'hello again');
  await turnEnds(page, 'end_turn');
  const reply = await page.locator('[data-testid=entry][data-kind=agent]').last().textContent();
  if (!reply.includes('Logged in at last.')) throw new Error(`reply: ${reply}`);
  if ((await page.content()).includes('acme-e2e-key-888')) throw new Error('the key is in the page');
});
