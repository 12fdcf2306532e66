// The composer while the agent works: Send queues, the queue above the box (edit, remove, send now,
// steer), and Up in an empty box recalling the last prompt. The component alone, callbacks mocked.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Attachment, QueuedPrompt, SessionState } from '../lib/protocol';
import Composer from './Composer.svelte';

afterEach(() => cleanup());

const QUEUE: QueuedPrompt[] = [
  { id: 'q1', text: 'then run the tests' },
  { id: 'q2', text: 'and commit', attachments: [{ kind: 'file', name: 'a.md', size: 3, sent: 'link' }] },
];

function setup({ state = 'running' as SessionState, queue = QUEUE, canSteer = false, last = '' } = {}) {
  const cb = {
    onSend: vi.fn(async (_text: string, _attachments: Attachment[]) => true),
    onEditQueued: vi.fn(async (_id: string, _text: string) => true),
    onRemoveQueued: vi.fn(),
    onSendQueuedNow: vi.fn(),
    onSteer: vi.fn(async (_id: string) => {}),
  };
  render(Composer, {
    props: { active: true, sessionState: state, onStop: vi.fn(), onHardStop: vi.fn(), queue, canSteer, lastPrompt: () => last, ...cb },
  });
  const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
  return { ...cb, input };
}

const items = () => screen.queryAllByTestId('queued-prompt');

describe('composer during a turn', () => {
  it('keeps Send enabled while the agent works and says it queues', async () => {
    const { input, onSend } = setup({ queue: [] });
    const send = screen.getByTestId('send') as HTMLButtonElement;
    expect(send.disabled).toBe(true); // nothing typed
    await fireEvent.input(input, { target: { value: 'next step' } });
    expect(send.disabled).toBe(false);
    expect(send.textContent).toContain('Queue');
    expect(send.title).toMatch(/sent when the running turn ends/);
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('next step', []);
    await waitFor(() => expect(input.value).toBe(''));
  });

  it('says Send when idle', () => {
    setup({ state: 'idle', queue: [] });
    expect(screen.getByTestId('send').textContent).toContain('Send');
  });

  it('lists the queued prompts in order with their controls; no steer unless the agent can', () => {
    setup();
    expect(items().map((i) => i.dataset.id)).toEqual(['q1', 'q2']);
    expect(items()[0].textContent).toContain('then run the tests');
    expect(screen.getAllByTestId('queued-send-now')).toHaveLength(2);
    expect(screen.getAllByTestId('queued-remove')).toHaveLength(2);
    expect(screen.queryAllByTestId('steer')).toHaveLength(0);
  });

  it('remove, send now and steer call back with the item', async () => {
    const { onRemoveQueued, onSendQueuedNow, onSteer } = setup({ canSteer: true });
    await fireEvent.click(screen.getAllByTestId('queued-remove')[1]);
    expect(onRemoveQueued).toHaveBeenCalledWith('q2');
    await fireEvent.click(screen.getAllByTestId('queued-send-now')[0]);
    expect(onSendQueuedNow).toHaveBeenCalledWith('q1');
    expect(screen.getAllByTestId('queued-send-now')[0].title).toMatch(/Stop the running turn/);
    await fireEvent.click(screen.getAllByTestId('steer')[1]);
    expect(onSteer).toHaveBeenCalledWith('q2');
  });

  it('no steer button once no turn runs', () => {
    setup({ state: 'idle', canSteer: true });
    expect(screen.queryAllByTestId('steer')).toHaveLength(0);
  });

  it('edits a queued prompt in place: Enter saves, Esc cancels', async () => {
    const { onEditQueued } = setup();
    await fireEvent.click(screen.getAllByTestId('queued-text')[0]);
    const edit = screen.getByTestId('queued-edit') as HTMLTextAreaElement;
    expect(edit.value).toBe('then run the tests');
    await fireEvent.input(edit, { target: { value: 'then run the unit tests' } });
    await fireEvent.keyDown(edit, { key: 'Enter' });
    expect(onEditQueued).toHaveBeenCalledWith('q1', 'then run the unit tests');
    await waitFor(() => expect(screen.queryByTestId('queued-edit')).toBeNull());

    await fireEvent.click(screen.getAllByTestId('queued-text')[1]);
    await fireEvent.input(screen.getByTestId('queued-edit'), { target: { value: 'never mind' } });
    await fireEvent.keyDown(screen.getByTestId('queued-edit'), { key: 'Escape' });
    expect(screen.queryByTestId('queued-edit')).toBeNull();
    expect(onEditQueued).toHaveBeenCalledTimes(1);
  });

  it('keeps the edit open with the typed text when saving fails', async () => {
    const { onEditQueued } = setup();
    onEditQueued.mockResolvedValueOnce(false);
    await fireEvent.click(screen.getAllByTestId('queued-text')[0]);
    await fireEvent.input(screen.getByTestId('queued-edit'), { target: { value: 'kept' } });
    await fireEvent.keyDown(screen.getByTestId('queued-edit'), { key: 'Enter' });
    await waitFor(() => expect(onEditQueued).toHaveBeenCalled());
    expect((screen.getByTestId('queued-edit') as HTMLTextAreaElement).value).toBe('kept');
  });

  it('says held prompts were not sent once the agent exited, and cannot send them now', () => {
    setup({ state: 'exited', queue: [{ id: 'q1', text: 'lost?', held: true }] });
    expect(items()[0].textContent).toContain('Not sent');
    expect(screen.getByRole('status').textContent).toMatch(/were not sent/);
    expect((screen.getByTestId('queued-send-now') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Up in an empty composer', () => {
  it('recalls the last prompt sent', async () => {
    const { input } = setup({ state: 'idle', queue: [], last: 'fix the build' });
    await fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(input.value).toBe('fix the build');
  });

  it('leaves typed text alone', async () => {
    const { input } = setup({ state: 'idle', queue: [], last: 'fix the build' });
    await fireEvent.input(input, { target: { value: 'new' } });
    await fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(input.value).toBe('new');
  });
});
