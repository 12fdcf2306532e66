// The MCP servers pane of the agent editor: adding an HTTP server with a secret header (which
// never comes back), scoping it to agents, switching transports, refusals shown in the pane, and
// deleting. The store's bindings are injected fakes that keep servers like the backend does.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MCPSettings } from '../lib/agents';
import type { AgentInfo } from '../lib/protocol';
import { AgentEditorStore } from '../state/agents.svelte';
import { MCPEditorStore } from '../state/mcp.svelte';
import AgentEditor from './AgentEditor.svelte';

const AGENTS: AgentInfo[] = [
  { id: 'claude', name: 'Claude Code', available: true, custom: false },
  { id: 'gemini', name: 'Gemini CLI', available: true, custom: false },
];

function fakeBackend() {
  const saved = new Map<string, MCPSettings>();
  const secrets = new Map<string, string>();
  const strip = (m: MCPSettings): MCPSettings => ({
    ...m,
    was: m.name,
    headers: m.headers.map((h) => ({ ...h, value: h.secret ? '' : h.value, isSet: h.secret && secrets.has(`${m.name}/${h.name}`) })),
  });
  const deps = {
    list: vi.fn(async () => [...saved.values()].map(strip)),
    save: vi.fn(async (m: MCPSettings) => {
      if (m.transport !== 'stdio' && !m.url.startsWith('http')) throw `MCP server "${m.name}": "${m.url}" is not an http or https URL`;
      for (const h of m.headers) if (h.secret && h.value) secrets.set(`${m.name}/${h.name}`, h.value);
      if (m.was && m.was !== m.name) saved.delete(m.was);
      saved.set(m.name, { ...m });
      return strip(m);
    }),
    remove: vi.fn(async (name: string) => void saved.delete(name)),
  };
  return { deps, saved, secrets };
}

async function openPane() {
  const backend = fakeBackend();
  const store = new AgentEditorStore({ mcp: new MCPEditorStore(backend.deps) });
  render(AgentEditor, { props: { store, agents: [], allAgents: AGENTS } });
  await store.show();
  await fireEvent.click(screen.getByTestId('agent-mcp'));
  await waitFor(() => expect(screen.getByTestId('mcp-servers')).toBeTruthy());
  return { store, backend };
}

afterEach(cleanup);

describe('MCP servers', () => {
  it('adds an HTTP server for one agent; its secret header goes to the backend and never comes back', async () => {
    const { backend } = await openPane();
    await fireEvent.input(screen.getByTestId('mcp-name'), { target: { value: 'github' } });
    await fireEvent.click(screen.getByLabelText('HTTP'));
    expect(screen.queryByTestId('mcp-command')).toBeNull();
    await fireEvent.input(screen.getByTestId('mcp-url'), { target: { value: 'https://mcp.example.com/gh' } });
    await fireEvent.click(screen.getByTestId('mcp-header-add'));
    await fireEvent.input(screen.getByTestId('mcp-header-name'), { target: { value: 'Authorization' } });
    await fireEvent.click(screen.getByTestId('mcp-header-secret'));
    await fireEvent.input(screen.getByTestId('mcp-header-value'), { target: { value: 'Bearer tok-777' } });
    await fireEvent.click(screen.getAllByTestId('mcp-agent').find((e) => e.dataset.agentId === 'claude')!);
    await fireEvent.click(screen.getByTestId('mcp-save'));

    await waitFor(() => expect(backend.deps.save).toHaveBeenCalledTimes(1));
    expect(backend.deps.save.mock.calls[0][0]).toMatchObject({
      name: 'github',
      was: '',
      transport: 'http',
      url: 'https://mcp.example.com/gh',
      headers: [{ name: 'Authorization', value: 'Bearer tok-777', secret: true }],
      agents: ['claude'],
    });
    await waitFor(() => expect(screen.getByTestId('mcp-header-set')).toBeTruthy());
    expect(document.body.innerHTML).not.toContain('tok-777');
    expect(screen.getByTestId('mcp-server-item').dataset.name).toBe('github');
    expect(screen.getByTestId('mcp-save').textContent).toBe('Save');
  });

  it('shows a refusal in the pane and keeps the form', async () => {
    await openPane();
    await fireEvent.input(screen.getByTestId('mcp-name'), { target: { value: 'web' } });
    await fireEvent.click(screen.getByLabelText('SSE'));
    await fireEvent.input(screen.getByTestId('mcp-url'), { target: { value: 'ftp://x' } });
    await fireEvent.submit(screen.getByTestId('mcp-url').closest('form')!);
    await waitFor(() => expect(screen.getByTestId('mcp-error').textContent).toContain('not an http or https URL'));
    expect((screen.getByTestId('mcp-url') as HTMLInputElement).value).toBe('ftp://x');
  });

  it('edits a stdio server, then deletes it', async () => {
    const { store, backend } = await openPane();
    await backend.deps.save({ name: 'files', was: '', transport: 'stdio', command: 'mcp-files', args: '--root /p', env: [], url: '', headers: [], agents: [], disabled: false });
    await store.mcp.load();
    await fireEvent.click(await screen.findByTestId('mcp-server-item'));
    expect((screen.getByTestId('mcp-command') as HTMLInputElement).value).toBe('mcp-files');
    await fireEvent.click(screen.getByTestId('mcp-disabled'));
    await fireEvent.click(screen.getByTestId('mcp-save'));
    await waitFor(() => expect(backend.saved.get('files')?.disabled).toBe(true));
    await fireEvent.click(screen.getByTestId('mcp-delete'));
    await waitFor(() => expect(backend.deps.remove).toHaveBeenCalledWith('files'));
    expect(screen.queryByTestId('mcp-server-item')).toBeNull();
    expect((screen.getByTestId('mcp-name') as HTMLInputElement).value).toBe('');
  });
});
