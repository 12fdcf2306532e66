// The agent's suggested prompts under the composer: a click fills the box and sends nothing;
// markup in a suggestion is text; an ended session shows none.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Composer from '../Composer.svelte';

afterEach(() => cleanup());

function setup(suggestions: string[], state = 'idle') {
  const onSend = vi.fn(async () => true);
  render(Composer, { props: { active: true, sessionState: state as 'idle', onSend, onStop: vi.fn(), onHardStop: vi.fn(), suggestions } });
  return { onSend, input: screen.getByTestId<HTMLTextAreaElement>('composer-input') };
}

describe('prompt suggestions', () => {
  it('fill the composer when clicked, and send nothing', async () => {
    const { onSend, input } = setup(['Run the tests', '<img src=x onerror=alert(1)>']);
    const chips = screen.getAllByTestId('prompt-suggestion');
    expect(chips.map((c) => c.textContent)).toEqual(['Run the tests', '<img src=x onerror=alert(1)>']);
    expect(document.querySelector('.suggestions img')).toBeNull();
    await fireEvent.click(chips[0]);
    expect(input.value).toBe('Run the tests');
    expect(document.activeElement).toBe(input);
    expect(onSend).not.toHaveBeenCalled();
  });

  it('are not shown once the session has ended', () => {
    setup(['Run the tests'], 'exited');
    expect(screen.queryByTestId('prompt-suggestion')).toBeNull();
  });
});
