// The agent editor: adding an agent with a secret, editing it (the stored secret shows as set
// and is never filled in), deleting it, the Zed import, keyboard use, and errors shown inside the
// dialog. The store's bindings are injected fakes that keep agents like the backend does.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentSettings } from '../lib/agents';
import type { AgentInfo } from '../lib/protocol';
import { AgentEditorStore } from '../state/agents.svelte';
import AgentEditor from './AgentEditor.svelte';

/** A fake backend: agents by id, secrets kept apart and never returned. */
function fakeBackend() {
  const saved = new Map<string, AgentSettings>();
  const secrets = new Map<string, string>();
  const infos = (): AgentInfo[] => [...saved.values()].map((a) => ({ id: a.id, name: a.name, available: true, custom: true }));
  const deps = {
    saveAgent: vi.fn(async (s: AgentSettings): Promise<AgentInfo> => {
      if (!s.command) throw 'agent "x" needs the command that starts it';
      const id = s.id || s.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      for (const v of s.env) if (v.secret && v.value) secrets.set(`${id}/${v.name}`, v.value);
      saved.set(id, { ...s, id, env: s.env.map((v) => ({ ...v, value: v.secret ? '' : v.value })) });
      return { id, name: s.name, available: true, custom: true };
    }),
    getAgent: vi.fn(async (id: string): Promise<AgentSettings> => {
      const a = saved.get(id)!;
      return { ...a, env: a.env.map((v) => ({ ...v, isSet: v.secret && secrets.has(`${id}/${v.name}`) })) };
    }),
    deleteAgent: vi.fn(async (id: string) => void saved.delete(id)),
    importZed: vi.fn(async (text: string) => {
      if (!text.includes('agent_servers')) throw 'no "agent_servers" found';
      return { added: ['Zed Agent'], skipped: ['claude: no command'] };
    }),
    onChanged: vi.fn(async () => {}),
  };
  return { deps, saved, secrets, infos };
}

function setup() {
  const backend = fakeBackend();
  const store = new AgentEditorStore(backend.deps);
  const view = render(AgentEditor, { props: { store, agents: [] as AgentInfo[] } });
  const rerender = () => view.rerender({ store, agents: backend.infos() });
  return { store, backend, rerender };
}

afterEach(cleanup);

describe('AgentEditor', () => {
  it('adds an agent whose secret goes to the backend and never comes back', async () => {
    const { store, backend, rerender } = setup();
    await store.show();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('agent-name')));
    await fireEvent.input(screen.getByTestId('agent-name'), { target: { value: 'Acme' } });
    await fireEvent.input(screen.getByTestId('agent-command'), { target: { value: 'acme-acp' } });
    await fireEvent.input(screen.getByTestId('agent-args'), { target: { value: '--acp "two words"' } });
    await fireEvent.click(screen.getByTestId('agent-env-add'));
    await fireEvent.input(screen.getByTestId('agent-env-name'), { target: { value: 'ACME_KEY' } });
    await fireEvent.click(screen.getByTestId('agent-env-secret'));
    const value = screen.getByTestId('agent-env-value') as HTMLInputElement;
    expect(value.type).toBe('password');
    await fireEvent.input(value, { target: { value: 'sk-secret-1234' } });
    await fireEvent.click(screen.getByTestId('agent-save'));

    await waitFor(() => expect(backend.deps.saveAgent).toHaveBeenCalledTimes(1));
    expect(backend.deps.saveAgent.mock.calls[0][0]).toMatchObject({
      name: 'Acme',
      command: 'acme-acp',
      args: '--acp "two words"',
      env: [{ name: 'ACME_KEY', value: 'sk-secret-1234', secret: true, isSet: false }],
    });
    expect(backend.secrets.get('acme/ACME_KEY')).toBe('sk-secret-1234');
    expect(backend.deps.onChanged).toHaveBeenCalledWith(expect.objectContaining({ id: 'acme' }));
    rerender();

    // The form now shows the saved agent: the secret is "set", and its value is nowhere on the page.
    await waitFor(() => expect(screen.getByTestId('agent-env-set').textContent).toContain('set'));
    expect(screen.queryByTestId('agent-env-value')).toBeNull();
    expect(document.body.innerHTML).not.toContain('sk-secret-1234');
    expect(screen.getByTestId('agent-list-item').textContent).toContain('Acme');
    expect(screen.getByTestId('agent-save').textContent).toBe('Save');

    // Saving again without touching the secret sends no value: the stored one is kept.
    await fireEvent.click(screen.getByTestId('agent-save'));
    await waitFor(() => expect(backend.deps.saveAgent).toHaveBeenCalledTimes(2));
    expect(backend.deps.saveAgent.mock.calls[1][0].env[0]).toMatchObject({ value: '', isSet: true });

    // Replace asks for a new value in a password field.
    await fireEvent.click(screen.getByTestId('agent-env-replace'));
    expect((screen.getByTestId('agent-env-value') as HTMLInputElement).type).toBe('password');
  });

  it('shows a refusal inside the dialog and keeps the form', async () => {
    const { store } = setup();
    await store.show();
    await fireEvent.input(screen.getByTestId('agent-name'), { target: { value: 'No command' } });
    await fireEvent.submit(screen.getByTestId('agent-name').closest('form')!);
    await waitFor(() => expect(screen.getByTestId('agent-editor-error').textContent).toContain('needs the command'));
    expect((screen.getByTestId('agent-name') as HTMLInputElement).value).toBe('No command');
    expect(store.open).toBe(true);
  });

  it('edits and deletes an existing agent', async () => {
    const { store, backend, rerender } = setup();
    await backend.deps.saveAgent({ id: '', name: 'Old', command: 'old-acp', args: '', env: [], folder: '/src' });
    rerender();
    await store.show();
    await fireEvent.click(screen.getByTestId('agent-list-item'));
    await waitFor(() => expect((screen.getByTestId('agent-command') as HTMLInputElement).value).toBe('old-acp'));
    expect((screen.getByTestId('agent-folder') as HTMLInputElement).value).toBe('/src');
    await fireEvent.click(screen.getByTestId('agent-delete'));
    await waitFor(() => expect(backend.deps.deleteAgent).toHaveBeenCalledWith('old'));
    expect(backend.saved.size).toBe(0);
    expect((screen.getByTestId('agent-name') as HTMLInputElement).value).toBe('');
  });

  it('imports Zed settings and reports what was skipped', async () => {
    const { store, backend } = setup();
    await store.show();
    await fireEvent.click(screen.getByTestId('agent-import'));
    await fireEvent.click(screen.getByTestId('agent-import-run'));
    await waitFor(() => expect(screen.getByTestId('agent-editor-error').textContent).toContain('agent_servers'));
    await fireEvent.input(screen.getByTestId('agent-import-text'), {
      target: { value: '{"agent_servers": {"Zed Agent": {"command": "z"}}, // comment\n}' },
    });
    await fireEvent.click(screen.getByTestId('agent-import-run'));
    await waitFor(() => expect(screen.getByTestId('agent-import-result').textContent).toContain('Added: Zed Agent'));
    expect(screen.getByTestId('agent-import-result').textContent).toContain('Skipped claude: no command');
    expect(backend.deps.onChanged).toHaveBeenCalled();
  });

  it('closes on Escape', async () => {
    const { store } = setup();
    await store.show();
    await fireEvent.keyDown(screen.getByTestId('agent-name'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('agent-editor')).toBeNull());
  });
});
