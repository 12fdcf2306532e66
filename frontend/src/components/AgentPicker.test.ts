// The agent picker: an agent's sign-in state (as Go words it) follows its name; focusing the
// picker reads the list again.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AgentPicker from './AgentPicker.svelte';

afterEach(() => cleanup());

describe('AgentPicker', () => {
  it('shows the sign-in state after the name and refreshes on focus', async () => {
    const onRefresh = vi.fn();
    render(AgentPicker, {
      props: {
        value: 'claude',
        onRefresh,
        agents: [
          { id: 'claude', name: 'Claude Code', available: true, custom: false, signIn: 'signed in: Claude Max' },
          { id: 'codex', name: 'Codex', available: true, custom: false, signIn: 'not signed in' },
          { id: 'demo', name: 'Demo agent', available: true, custom: false },
        ],
      },
    });
    const options = screen.getAllByTestId('agent-option');
    expect(options.map((o) => o.textContent)).toEqual(['Claude Code · signed in: Claude Max', 'Codex · not signed in', 'Demo agent']);
    expect(options[1].dataset.signIn).toBe('not signed in');
    await fireEvent.focus(screen.getByTestId('agent-picker'));
    expect(onRefresh).toHaveBeenCalledTimes(1);
  });
});
