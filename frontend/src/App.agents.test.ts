// Custom agents and logins through the whole page with mocked bindings: the editor opens from
// the top bar and the saved agent is picked (with its default folder); a start that fails
// because the agent needs a login shows the agent's methods, and each type starts again the way
// it should (agent at once, env_var with the typed values, terminal after the command ran).
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import App from './App.svelte';
import type { AuthPrompt } from './lib/agents';
import type { ManualClock } from './lib/clock';
import type { AgentInfo } from './lib/protocol';
import { app, emit, runtime, settle } from './test/harness';
import { AGENTS, SID } from './test/mocks';
import { resetPage, startSession, state } from './test/page';

let clock: ManualClock;

beforeEach(() => {
  clock = resetPage();
  runtime.BrowserOpenURL.mockClear();
});

afterEach(() => cleanup());

const PROMPT: AuthPrompt = {
  sessionId: SID,
  agentId: 'gemini',
  agentName: 'Gemini CLI',
  message: 'Authentication required',
  canRunTerminal: true,
  methods: [
    { id: 'oauth', name: 'Log in with Google', description: 'Opens your browser', type: 'agent' },
    {
      id: 'api-key',
      name: 'Use a Gemini API key',
      type: 'env_var',
      link: 'https://aistudio.example/apikey',
      vars: [{ name: 'GEMINI_API_KEY', label: 'API key', optional: false, secret: true, isSet: false }],
    },
    { id: 'cli', name: 'Log in in a terminal', type: 'terminal', command: 'ACME=1 /usr/bin/gemini auth login' },
  ],
};

async function failWithLogin(): Promise<void> {
  app.SessionAuth.mockImplementation(async () => PROMPT);
  await startSession(clock);
  emit(state('failed'));
  await waitFor(() => expect(screen.getByTestId('auth-methods')).toBeTruthy());
}

function method(id: string): HTMLElement {
  return screen.getAllByTestId('auth-method').find((m) => m.dataset.methodId === id)!;
}

describe('agent editor from the top bar', () => {
  it('adds an agent and picks it, with its default folder', async () => {
    const custom: AgentInfo = { id: 'acme', name: 'Acme', available: true, custom: true, folder: '/src/acme' };
    app.SaveAgent.mockImplementation(async () => {
      app.ListAgents.mockImplementation(async () => [...AGENTS, custom]);
      return custom;
    });
    app.GetAgent.mockImplementation(async () => ({ id: 'acme', name: 'Acme', command: 'acme', args: '', env: [], folder: '/src/acme' }));
    render(App, { props: { clock } });
    await waitFor(() => expect(screen.getAllByTestId('agent-option')).toHaveLength(3));
    await fireEvent.click(screen.getByTestId('agents-manage'));
    await fireEvent.input(screen.getByTestId('agent-name'), { target: { value: 'Acme' } });
    await fireEvent.input(screen.getByTestId('agent-command'), { target: { value: 'acme' } });
    await fireEvent.input(screen.getByTestId('agent-folder'), { target: { value: '/src/acme' } });
    await fireEvent.click(screen.getByTestId('agent-save'));
    await waitFor(() => expect(screen.getAllByTestId('agent-option')).toHaveLength(4));
    expect((screen.getByTestId('agent-picker') as HTMLSelectElement).value).toBe('acme');
    await waitFor(() => expect((screen.getByTestId('cwd-input') as HTMLInputElement).value).toBe('/src/acme'));
    expect(screen.getByTestId('agent-list-item').textContent).toContain('Acme');
  });

  it('says at start-up when the agents file cannot be read', async () => {
    app.AgentsNotice.mockImplementation(async () => 'your custom agents file /x/agents.json is not valid');
    render(App, { props: { clock } });
    await waitFor(() => expect(screen.getByTestId('error-banner').textContent).toContain('agents.json is not valid'));
  });
});

describe('login prompt', () => {
  it('lists the methods with their descriptions, and only for a login failure', async () => {
    await startSession(clock);
    emit(state('failed'));
    await settle();
    expect(app.SessionAuth).toHaveBeenCalledWith(SID);
    expect(screen.queryByTestId('auth-methods')).toBeNull(); // no methods: nothing to offer
    cleanup();
    clock = resetPage();
    await failWithLogin();
    const types = screen.getAllByTestId('auth-method').map((m) => m.dataset.methodType);
    expect(types).toEqual(['agent', 'env_var', 'terminal']);
    expect(screen.getByTestId('auth-methods').textContent).toContain('Opens your browser');
    expect(screen.getByTestId('auth-methods').textContent).toContain('Gemini CLI needs you to log in');
  });

  it('runs an agent method and shows the new session', async () => {
    await failWithLogin();
    await fireEvent.click(method('oauth').querySelector('button')!);
    await fireEvent.click(screen.getByTestId('auth-run'));
    await waitFor(() => expect(app.StartSessionWithAuth).toHaveBeenCalledWith(SID, 'oauth', {}));
    await waitFor(() => expect(screen.queryByTestId('auth-methods')).toBeNull());
    await waitFor(() => expect(app.Snapshot).toHaveBeenCalledWith('s2'));
  });

  it('asks an env_var method for its values in a password field, with the link outside', async () => {
    await failWithLogin();
    await fireEvent.click(method('api-key').querySelector('button')!);
    const input = screen.getByTestId('auth-var') as HTMLInputElement;
    expect(input.type).toBe('password');
    await fireEvent.click(screen.getByTestId('auth-link'));
    expect(runtime.BrowserOpenURL).toHaveBeenCalledWith('https://aistudio.example/apikey');
    app.StartSessionWithAuth.mockImplementationOnce(async () => {
      throw 'give a value for API key (GEMINI_API_KEY)';
    });
    await fireEvent.click(screen.getByTestId('auth-submit'));
    await waitFor(() => expect(screen.getByTestId('auth-error').textContent).toContain('give a value'));
    await fireEvent.input(input, { target: { value: 'AIza-secret-1234' } });
    await fireEvent.click(screen.getByTestId('auth-submit'));
    await waitFor(() => expect(app.StartSessionWithAuth).toHaveBeenLastCalledWith(SID, 'api-key', { GEMINI_API_KEY: 'AIza-secret-1234' }));
    await waitFor(() => expect(screen.queryByTestId('auth-methods')).toBeNull());
  });

  it('shows a terminal method`s exact command, runs it in a terminal, then retries', async () => {
    await failWithLogin();
    await fireEvent.click(method('cli').querySelector('button')!);
    expect(screen.getByTestId('auth-command').textContent).toBe('ACME=1 /usr/bin/gemini auth login');
    await fireEvent.click(screen.getByTestId('auth-copy'));
    expect(runtime.ClipboardSetText).toHaveBeenCalledWith('ACME=1 /usr/bin/gemini auth login');
    await fireEvent.click(screen.getByTestId('auth-terminal'));
    expect(app.RunAuthInTerminal).toHaveBeenCalledWith(SID, 'cli');
    await fireEvent.click(screen.getByTestId('auth-retry'));
    await waitFor(() => expect(app.StartSessionWithAuth).toHaveBeenCalledWith(SID, 'cli', {}));
  });

  it('offers no terminal button when no terminal emulator was found', async () => {
    app.SessionAuth.mockImplementation(async () => ({ ...PROMPT, canRunTerminal: false }));
    await startSession(clock);
    emit(state('failed'));
    await waitFor(() => expect(screen.getByTestId('auth-methods')).toBeTruthy());
    await fireEvent.click(method('cli').querySelector('button')!);
    expect(screen.queryByTestId('auth-terminal')).toBeNull();
    expect(screen.getByTestId('auth-retry')).toBeTruthy();
  });
});
