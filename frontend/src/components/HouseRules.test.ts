// The house rules editor: it shows the saved rules of an agent in a folder, saves what is typed,
// says when the agent does not take them, and refuses more than the bound Go gives.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { app } from '../test/harness';
import HouseRules from './HouseRules.svelte';

describe('HouseRules', () => {
  beforeEach(() => {
    app.HouseRules.mockClear();
    app.SaveHouseRules.mockClear();
  });
  afterEach(() => cleanup());

  it('loads the saved rules, saves the edited text and closes', async () => {
    app.HouseRules.mockResolvedValueOnce({ agentId: 'demo', folder: '/src/app', text: 'Use tabs.', saved: '2026-12-07T13:00:00Z', max: 32768 });
    const onClose = vi.fn();
    render(HouseRules, { agentId: 'demo', agentName: 'Demo agent', folder: '/src/app/', takes: true, onClose });
    const field = screen.getByTestId<HTMLTextAreaElement>('system-prompt');
    await waitFor(() => expect(field.value).toBe('Use tabs.'));
    expect(app.HouseRules).toHaveBeenCalledWith('demo', '/src/app/');
    expect(screen.getByTestId('house-rules').textContent).toContain('/src/app');
    expect(screen.queryByTestId('system-prompt-unsupported')).toBeNull();
    await fireEvent.input(field, { target: { value: 'Use spaces.\n<b>never bold</b>' } });
    await fireEvent.click(screen.getByTestId('system-prompt-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(app.SaveHouseRules).toHaveBeenCalledWith('demo', '/src/app/', 'Use spaces.\n<b>never bold</b>');
    expect(document.querySelector('b')).toBeNull(); // shown as text, never as markup
  });

  it('says when the agent does not take them, and refuses more than the bound', async () => {
    app.HouseRules.mockResolvedValueOnce({ agentId: 'x', folder: '/p', text: '', saved: '', max: 8 });
    render(HouseRules, { agentId: 'x', agentName: 'Gemini', folder: '/p', takes: false, onClose: () => {} });
    expect(screen.getByTestId('system-prompt-unsupported').textContent).toContain('Gemini does not take house rules');
    const field = screen.getByTestId<HTMLTextAreaElement>('system-prompt');
    await waitFor(() => expect(field.disabled).toBe(false));
    await fireEvent.input(field, { target: { value: 'é'.repeat(5) } }); // ten bytes
    expect(screen.getByTestId<HTMLButtonElement>('system-prompt-save').disabled).toBe(true);
    expect(screen.getByTestId('system-prompt-size').classList.contains('tone-bad')).toBe(true);
  });

  it('shows a refused save and stays open', async () => {
    app.SaveHouseRules.mockRejectedValueOnce('could not save the house rules: the history database is unavailable');
    const onClose = vi.fn();
    render(HouseRules, { agentId: 'demo', agentName: 'Demo agent', folder: '/p', onClose });
    const field = screen.getByTestId<HTMLTextAreaElement>('system-prompt');
    await waitFor(() => expect(field.disabled).toBe(false));
    await fireEvent.input(field, { target: { value: 'x' } });
    await fireEvent.click(screen.getByTestId('system-prompt-save'));
    await waitFor(() => expect(screen.getByTestId('system-prompt-error').textContent).toContain('unavailable'));
    expect(onClose).not.toHaveBeenCalled();
  });
});
