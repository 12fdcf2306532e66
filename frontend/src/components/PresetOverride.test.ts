// A preset's override in the agent editor: opened from the preset's button (preset-override), its
// fields saved as the override, the installed version and the pin shown as Go says them, Install
// with its steps, Reset. The store's bindings are injected fakes that keep the override like the
// backend does.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentSettings } from '../lib/agents';
import type { AgentInfo } from '../lib/protocol';
import { AgentEditorStore } from '../state/agents.svelte';
import { PresetEditorStore } from '../state/presets.svelte';
import AgentEditor from './AgentEditor.svelte';

const pristine = (): AgentSettings => ({ id: 'gemini', name: 'Gemini CLI', command: '', args: '--acp', env: [], folder: '', version: '' });

function setup(installed = '') {
  let override: AgentSettings | null = null;
  let version = installed;
  const info = (): AgentInfo => ({
    id: 'gemini',
    name: 'Gemini CLI',
    available: version !== '',
    custom: false,
    version: version || undefined,
    preset: {
      package: '@google/gemini-cli',
      pinned: override?.version || '0.61.0',
      installable: version === '',
      updateTo: version && version !== (override?.version || '0.61.0') ? override?.version || '0.61.0' : undefined,
      overridden: override !== null,
    },
  });
  const deps = {
    getOverride: vi.fn(async () => override ?? pristine()),
    saveOverride: vi.fn(async (s: AgentSettings) => {
      if (s.version && !/^\d+\.\d+\.\d+$/.test(s.version)) throw `Gemini CLI: "${s.version}" is not an exact version`;
      override = { ...s, env: s.env.map((v) => ({ ...v, value: v.secret ? '' : v.value, isSet: v.secret })) };
      return info();
    }),
    reset: vi.fn(async () => {
      override = null;
      return info();
    }),
    install: vi.fn(async () => {
      version = override?.version || '0.61.0';
      return info();
    }),
    onChanged: vi.fn(async () => {}),
  };
  const store = new AgentEditorStore({ preset: new PresetEditorStore(deps) });
  render(AgentEditor, { props: { store, agents: [], allAgents: [{ id: 'demo', name: 'Demo agent', available: true, custom: false }, info()] } });
  return { store, deps, info };
}

afterEach(cleanup);

describe('a preset override', () => {
  it('opens from the preset, saves its fields as the override and resets it', async () => {
    const { store, deps } = setup('0.61.0');
    store.open = true;
    const buttons = await screen.findAllByTestId('preset-override');
    expect(buttons.map((b) => b.dataset.agentId)).toEqual(['gemini']); // only presets
    await fireEvent.click(buttons[0]);
    const args = (await screen.findByTestId('preset-args')) as HTMLInputElement;
    expect(args.value).toBe('--acp');
    expect(screen.getByTestId('preset-status').textContent).toContain('0.61.0');
    expect(screen.queryByTestId('preset-reset')).toBeNull(); // nothing to reset yet

    await fireEvent.input(args, { target: { value: '--acp --model pro' } });
    await fireEvent.input(screen.getByTestId('preset-folder'), { target: { value: '/work/project' } });
    await fireEvent.click(screen.getByTestId('preset-save'));
    await waitFor(() => expect(deps.saveOverride).toHaveBeenCalledTimes(1));
    expect(deps.saveOverride.mock.calls[0][0]).toMatchObject({ id: 'gemini', args: '--acp --model pro', folder: '/work/project' });
    expect(deps.onChanged).toHaveBeenCalled();

    await fireEvent.click(await screen.findByTestId('preset-reset'));
    await waitFor(() => expect(deps.reset).toHaveBeenCalledWith('gemini'));
    await waitFor(() => expect((screen.getByTestId('preset-args') as HTMLInputElement).value).toBe('--acp'));
    expect(screen.queryByTestId('preset-reset')).toBeNull();
  });

  it('shows a refused version in the pane and saves nothing', async () => {
    const { store, deps, info } = setup('0.61.0');
    await store.editPreset(info());
    await fireEvent.input(await screen.findByTestId('preset-version-input'), { target: { value: '../x' } });
    await fireEvent.click(screen.getByTestId('preset-save'));
    expect((await screen.findByTestId('agent-editor-error')).textContent).toContain('not an exact version');
    expect(deps.reset).not.toHaveBeenCalled();
  });

  it('installs a preset that is not installed, then offers an update to a version chosen', async () => {
    const { store, deps, info } = setup();
    await store.editPreset(info());
    expect((await screen.findByTestId('preset-status')).textContent).toContain('Not installed');
    await fireEvent.click(screen.getByTestId('preset-install'));
    await waitFor(() => expect(deps.install).toHaveBeenCalledWith('gemini'));
    await waitFor(() => expect(screen.getByTestId('preset-version').textContent).toBe('0.61.0'));
    expect(screen.queryByTestId('preset-install')).toBeNull(); // installed at its pin: nothing to update

    await fireEvent.input(screen.getByTestId('preset-version-input'), { target: { value: '0.62.0' } });
    await fireEvent.click(screen.getByTestId('preset-save'));
    expect((await screen.findByTestId('preset-install')).textContent).toContain('Update to 0.62.0');
  });
});
