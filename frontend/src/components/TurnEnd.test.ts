// The turn divider: its reason and the first line of why, the whole message as its tooltip.
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import TurnEnd from './TurnEnd.svelte';

afterEach(cleanup);

describe('TurnEnd', () => {
  it('shows the first line of a long message, and all of it as the tooltip', () => {
    const message = 'Acme needs you to log in (Authentication required); it offers:\n  api-key (env_var): Use an API key';
    render(TurnEnd, { props: { turn: { turn: 2, stopReason: 'error', message } } });
    const divider = screen.getByTestId('turn-end');
    expect(divider.textContent?.trim()).toBe('Error: Acme needs you to log in (Authentication required); it offers:…');
    expect(divider.querySelector('[title]')?.getAttribute('title')).toBe(message);
  });

  it('shows a one-line message whole, and none for a completed turn', () => {
    render(TurnEnd, { props: { turn: { turn: 1, stopReason: 'interrupted', message: 'stopped hard' } } });
    expect(screen.getByTestId('turn-end').textContent?.trim()).toBe('Interrupted: stopped hard');
    cleanup();
    render(TurnEnd, { props: { turn: { turn: 1, stopReason: 'end_turn', message: 'ignored' } } });
    expect(screen.getByTestId('turn-end').textContent?.trim()).toBe('Turn complete');
    expect(screen.getByTestId('turn-end').querySelector('[title]')).toBeNull();
  });
});
