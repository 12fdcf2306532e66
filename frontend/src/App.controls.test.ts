// The session controls (pickers) and the slash-command palette, driven through the whole page
// with mocked bindings (see App.test.ts for the basics, ./test/page.ts for the set-up).
import { cleanup, fireEvent, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { ManualClock } from './lib/clock';
import type { Controls } from './lib/protocol';
import { app, emit, settle } from './test/harness';
import { SID, emptySnapshot } from './test/mocks';
import { demoControls, historyItem, info, resetPage, startSession as start, state } from './test/page';

let clock: ManualClock;
const startSession = () => start(clock);

function option(id: string): HTMLInputElement & HTMLSelectElement {
  return screen.getAllByTestId('config-option').find((el) => el.dataset.configId === id) as HTMLInputElement & HTMLSelectElement;
}

beforeEach(() => {
  clock = resetPage();
});

afterEach(() => cleanup());

describe('session controls', () => {
  it('renders the config options: a select with the agent choices and a switch', async () => {
    await startSession();
    emit(state('idle'), info(demoControls()));
    const controls = screen.getAllByTestId('config-option');
    expect(controls.map((c) => c.dataset.configId)).toEqual(['mode', 'thinking']);
    const mode = option('mode');
    expect(mode.tagName).toBe('SELECT');
    expect(Array.from(mode.options).map((o) => [o.value, o.textContent])).toEqual([
      ['ask', 'Ask before edits'],
      ['auto', 'Edit automatically'],
    ]);
    expect(mode.value).toBe('ask');
    const thinking = option('thinking');
    expect(thinking.type).toBe('checkbox');
    expect(thinking.getAttribute('role')).toBe('switch');
    expect(thinking.checked).toBe(true);
    expect(screen.getByTestId('session-header').textContent).toContain('Think out loud');
    // Config options win over the legacy pickers.
    expect(screen.queryByTestId('mode-picker')).toBeNull();
    expect(screen.queryByTestId('model-picker')).toBeNull();
  });

  it('renders grouped options as optgroups', async () => {
    await startSession();
    emit(
      state('idle'),
      info({
        configOptions: [
          {
            id: 'model',
            name: 'Model',
            type: 'select',
            currentValue: 'sonnet',
            options: [
              { group: 'fast', name: 'Fast', options: [{ value: 'haiku', name: 'Haiku' }] },
              { group: 'smart', name: 'Smart', options: [{ value: 'sonnet', name: 'Sonnet' }, { value: 'opus', name: 'Opus' }] },
            ],
          },
        ],
      }),
    );
    const model = option('model');
    const groups = Array.from(model.querySelectorAll('optgroup'));
    expect(groups.map((g) => g.label)).toEqual(['Fast', 'Smart']);
    expect(Array.from(groups[1].querySelectorAll('option')).map((o) => o.value)).toEqual(['sonnet', 'opus']);
    expect(model.value).toBe('sonnet');
  });

  it('sends a change as JSON and keeps it when the agent confirms', async () => {
    await startSession();
    emit(state('idle'), info(demoControls()));
    const mode = option('mode');
    await fireEvent.change(mode, { target: { value: 'auto' } });
    expect(app.SetConfigOption).toHaveBeenCalledWith(SID, 'mode', '"auto"');
    await settle();
    expect(option('mode').value).toBe('auto'); // until the info event
    emit(info(demoControls('auto')));
    expect(option('mode').value).toBe('auto');

    await fireEvent.click(option('thinking'));
    expect(app.SetConfigOption).toHaveBeenLastCalledWith(SID, 'thinking', 'false');
    emit(info(demoControls('auto', false)));
    expect(option('thinking').checked).toBe(false);
  });

  it('marks a control busy while its call is in flight', async () => {
    let finish = () => {};
    app.SetConfigOption.mockImplementation(() => new Promise<void>((r) => (finish = r)));
    await startSession();
    emit(state('idle'), info(demoControls()));
    await fireEvent.change(option('mode'), { target: { value: 'auto' } });
    expect(option('mode').dataset.pending).toBe('true');
    expect(option('mode').getAttribute('aria-busy')).toBe('true');
    finish();
    await settle();
    expect(option('mode').dataset.pending).toBeUndefined();
    expect(option('mode').value).toBe('auto');
  });

  it('shows a refused change in the error banner and goes back to the agent value', async () => {
    app.SetConfigOption.mockImplementation(async () => {
      throw 'Demo agent: mode must be "ask" or "auto"';
    });
    await startSession();
    emit(state('idle'), info(demoControls()));
    await fireEvent.change(option('mode'), { target: { value: 'auto' } });
    await settle();
    expect(screen.getByTestId('error-banner').textContent).toContain('mode must be');
    expect(option('mode').value).toBe('ask');
    await fireEvent.click(option('thinking'));
    await settle();
    expect(option('thinking').checked).toBe(true);
  });

  it('offers the legacy mode and model pickers when there are no config options', async () => {
    await startSession();
    emit(
      state('idle'),
      info({
        modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'plan', name: 'Plan mode' }] },
        models: { currentModelId: 'm1', availableModels: [{ modelId: 'm1', name: 'Model one' }, { modelId: 'm2', name: 'Model two' }] },
      }),
    );
    expect(screen.queryAllByTestId('config-option')).toHaveLength(0);
    const modes = screen.getByTestId('mode-picker') as HTMLSelectElement;
    const models = screen.getByTestId('model-picker') as HTMLSelectElement;
    expect(modes.value).toBe('default');
    expect(Array.from(models.options).map((o) => o.textContent)).toEqual(['Model one', 'Model two']);
    await fireEvent.change(modes, { target: { value: 'plan' } });
    expect(app.SetMode).toHaveBeenCalledWith(SID, 'plan');
    await fireEvent.change(models, { target: { value: 'm2' } });
    expect(app.SetModel).toHaveBeenCalledWith(SID, 'm2');
  });

  it('is disabled only while the session starts, and absent for a saved session', async () => {
    app.Snapshot.mockImplementation(async (id: string) => emptySnapshot(id, { controls: demoControls() }));
    app.ListHistory.mockImplementation(async () => [historyItem('h1', 'Old one')]);
    await startSession();
    expect(option('mode').disabled).toBe(true);
    emit(state('idle'));
    expect(option('mode').disabled).toBe(false);
    emit(state('running'));
    expect(option('mode').disabled).toBe(false);
    expect(option('thinking').disabled).toBe(false);
    await fireEvent.click(screen.getAllByTestId('history-item')[0]);
    await settle();
    expect(screen.queryAllByTestId('config-option')).toHaveLength(0);
  });
});

describe('slash-command palette', () => {
  async function ready(controls: Controls = demoControls()) {
    await startSession();
    emit(state('idle'), info(controls));
    return screen.getByTestId('composer-input') as HTMLTextAreaElement;
  }

  function items() {
    return screen.queryAllByTestId('command-item');
  }

  it('opens on a leading slash, filters, moves with the arrows and completes with Enter', async () => {
    const input = await ready();
    await fireEvent.input(input, { target: { value: '/' } });
    expect(screen.getByTestId('command-palette')).toBeTruthy();
    expect(items().map((i) => i.dataset.command)).toEqual(['review', 'plan']);
    expect(items()[0].textContent).toContain('/review');
    expect(items()[0].textContent).toContain('Review the project folder');
    expect(items()[0].getAttribute('aria-selected')).toBe('true');

    await fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(items()[1].getAttribute('aria-selected')).toBe('true');
    await fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(items()[0].getAttribute('aria-selected')).toBe('true');
    await fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(items()[1].getAttribute('aria-selected')).toBe('true');

    await fireEvent.input(input, { target: { value: '/re' } });
    expect(items().map((i) => i.dataset.command)).toEqual(['review']);
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(app.Prompt).not.toHaveBeenCalled();
    expect(input.value).toBe('/review ');
    expect(screen.queryByTestId('command-palette')).toBeNull();
    expect(screen.getByTestId('command-hint').textContent).toContain('what to focus on');

    await fireEvent.input(input, { target: { value: '/review the tests' } });
    expect(screen.queryByTestId('command-hint')).toBeNull();
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(app.Prompt).toHaveBeenCalledWith(SID, '/review the tests');
  });

  it('completes with Tab and with a click', async () => {
    const input = await ready();
    await fireEvent.input(input, { target: { value: '/pl' } });
    await fireEvent.keyDown(input, { key: 'Tab' });
    expect(input.value).toBe('/plan ');
    await fireEvent.input(input, { target: { value: '/' } });
    await fireEvent.click(items()[0]);
    expect(input.value).toBe('/review ');
  });

  it('Esc closes the palette without stopping the turn; the next Esc stops', async () => {
    const input = await ready();
    emit(state('running'));
    await fireEvent.input(input, { target: { value: '/' } });
    expect(screen.getByTestId('command-palette')).toBeTruthy();
    await fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByTestId('command-palette')).toBeNull();
    expect(app.Stop).not.toHaveBeenCalled();
    await fireEvent.input(input, { target: { value: '/r' } });
    expect(screen.queryByTestId('command-palette')).toBeNull(); // stays closed for this command
    await fireEvent.keyDown(input, { key: 'Escape' });
    expect(app.Stop).toHaveBeenCalledWith(SID);
    // Starting over opens it again.
    await fireEvent.input(input, { target: { value: '' } });
    await fireEvent.input(input, { target: { value: '/' } });
    expect(screen.getByTestId('command-palette')).toBeTruthy();
  });

  it('sends "/text" as plain text when the agent advertises no commands', async () => {
    const input = await ready({ configOptions: [] });
    await fireEvent.input(input, { target: { value: '/review' } });
    expect(screen.queryByTestId('command-palette')).toBeNull();
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(app.Prompt).toHaveBeenCalledWith(SID, '/review');
  });

  it('sends what was typed when nothing matches', async () => {
    const input = await ready();
    await fireEvent.input(input, { target: { value: '/zzz' } });
    expect(screen.queryByTestId('command-palette')).toBeNull();
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(app.Prompt).toHaveBeenCalledWith(SID, '/zzz');
  });
});
