// Prompts while the agent works, through the whole page with mocked bindings: the queue event
// shows the queued prompts above the composer, their buttons call the queue verbs for the live
// session, steer appears only for an agent that can steer, and Up recalls the last prompt sent.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { ManualClock } from './lib/clock';
import { app, emit, ev, settle } from './test/harness';
import { SID } from './test/mocks';
import { info, resetPage, startSession as start, state } from './test/page';

let clock: ManualClock;
const startSession = () => start(clock);

beforeEach(() => {
  clock = resetPage();
});

afterEach(() => cleanup());

const queued = (...texts: string[]) => ev({ kind: 'queue', queue: texts.map((text, i) => ({ id: `q${i + 1}`, text })) });

describe('queued prompts', () => {
  it('shows the queue above the composer and calls the queue verbs for the live session', async () => {
    await startSession();
    emit(state('idle'), info({}), state('running'), queued('run the tests', 'then commit'));
    const items = screen.getAllByTestId('queued-prompt');
    expect(items.map((i) => i.textContent?.includes('run the tests'))).toEqual([true, false]);
    expect(screen.queryByTestId('steer')).toBeNull();

    await fireEvent.click(screen.getAllByTestId('queued-send-now')[1]);
    expect(app.SendQueuedNow).toHaveBeenCalledWith(SID, 'q2');
    await fireEvent.click(screen.getAllByTestId('queued-remove')[0]);
    expect(app.RemoveQueued).toHaveBeenCalledWith(SID, 'q1');

    await fireEvent.click(screen.getAllByTestId('queued-text')[0]);
    await fireEvent.input(screen.getByTestId('queued-edit'), { target: { value: 'run all the tests' } });
    await fireEvent.keyDown(screen.getByTestId('queued-edit'), { key: 'Enter' });
    expect(app.EditQueued).toHaveBeenCalledWith(SID, 'q1', 'run all the tests');

    emit(ev({ kind: 'queue' }));
    await settle();
    expect(screen.queryAllByTestId('queued-prompt')).toHaveLength(0);
  });

  it('offers steer where the agent can, and shows a refusal in the banner', async () => {
    app.Steer.mockImplementationOnce(async () => {
      throw 'this agent cannot take a message into its running turn';
    });
    await startSession();
    emit(state('idle'), info({ canSteer: true }), state('running'), queued('go left'));
    await fireEvent.click(screen.getByTestId('steer'));
    expect(app.Steer).toHaveBeenCalledWith(SID, 'q1');
    await waitFor(() => expect(screen.getByTestId('error-banner').textContent).toContain('cannot take a message'));
    expect(screen.getAllByTestId('queued-prompt')).toHaveLength(1); // the event, not the click, removes it
  });

  it('Up in the empty composer recalls the last prompt sent', async () => {
    await startSession();
    emit(state('idle'), ev({ kind: 'entry', entry: { id: 'e1', kind: 'user', turn: 1, text: 'fix the build' } }));
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    await fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(input.value).toBe('fix the build');
  });
});
