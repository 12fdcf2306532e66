// Issue 16 in the page: an elicitation the agent sends is a card in the transcript where it
// arrived, answered through AnswerElicitation (OpenElicitationURL for a page), and while open it
// is a decision waiting on the person like a permission request: counted in the header's list,
// the session row's waiting count and state, and the OS notification while unfocused.
import { fireEvent, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Entry } from './lib/protocol';
import { elicitationEntry } from './test/elicitation';
import { app, emit, settle } from './test/harness';
import { on, renderLivePage, row, startLive } from './test/live';
import { pageWithFocus } from './test/page';

const page = pageWithFocus();

const pending = () => screen.getByTestId('pending-decisions');
const card = () => screen.getByTestId('elicitation');
const field = (name: string) =>
  document.querySelector<HTMLElement>(`[data-testid="elicitation-field"][data-name="${name}"]`)!.querySelector<HTMLInputElement>('input, select')!;

const renderApp = () => renderLivePage(page.clock);
const start = (id: string) => startLive(id, 'idle', 'running');

function entry(id: string, e: Entry) {
  emit(on(id, { kind: 'entry', entry: e }));
}

describe('elicitations in the window', () => {
  it('count as decisions waiting, jump to their card, and leave the count once answered', async () => {
    await renderApp();
    await start('one');
    await start('two');
    page.focused = false;
    entry('one', elicitationEntry('form')); // while the other session is shown
    expect(app.NotifyAttention).toHaveBeenCalledWith('one', 'permission', 'Demo agent', 'Set up the deployment');
    page.focused = true;
    expect(pending().dataset.count).toBe('1');
    expect(row('one').dataset.waiting).toBe('1');
    expect(row('one').dataset.state).toBe('waiting');
    expect(row('one').dataset.unseen).toBe('true');

    // Picking it shows its session and puts the keyboard in the form's first field.
    await fireEvent.click(pending());
    const item = screen.getByTestId('pending-decision');
    expect(item.dataset.kind).toBe('elicitation');
    expect(item.dataset.requestId).toBe('7');
    expect(item.textContent).toContain('Set up the deployment');
    await fireEvent.click(item);
    await settle();
    expect(card().dataset.state).toBe('open');
    expect(document.activeElement).toBe(field('name'));

    // Answered through the bound verb, for the shown session, with typed values.
    await fireEvent.input(field('name'), { target: { value: 'shop' } });
    await fireEvent.input(field('token'), { target: { value: 'k' } });
    await fireEvent.click(screen.getByTestId('elicitation-accept'));
    await settle();
    expect(app.AnswerElicitation).toHaveBeenCalledWith('one', '7', 'accept', expect.objectContaining({ name: 'shop', token: 'k', replicas: 2, public: true }));
    expect(pending().dataset.count).toBe('1'); // open until the entry settles

    entry('one', elicitationEntry('formAccepted'));
    expect(pending().dataset.count).toBe('0');
    expect(row('one').dataset.waiting).toBe('0');
    expect(row('one').dataset.state).toBe('working');
    expect(card().dataset.state).toBe('accepted');
  });

  it('counts with permissions of the same request id apart', async () => {
    await renderApp();
    await start('one');
    emit(
      on('one', { kind: 'entry', entry: { id: 'tc', kind: 'tool', turn: 1, title: 'Edit a', status: 'pending' } }),
      on('one', { kind: 'permission', requestId: '7', toolCallId: 'tc', options: [{ id: 'ok', name: 'Allow', kind: 'allow_once' }] }),
    );
    entry('one', elicitationEntry('form'));
    expect(pending().dataset.count).toBe('2');
    await fireEvent.click(pending());
    expect(screen.getAllByTestId('pending-decision').map((i) => i.dataset.kind)).toEqual(['permission', 'elicitation']);
  });

  it('keeps what was typed when another session is shown and back', async () => {
    await renderApp();
    await start('one');
    entry('one', elicitationEntry('form'));
    await fireEvent.input(field('name'), { target: { value: 'half' } });
    await start('two');
    expect(screen.queryByTestId('elicitation')).toBeNull();
    await fireEvent.click(row('one').querySelector('button')!);
    await settle();
    expect(field('name').value).toBe('half');
  });

  it('opens a url one in the system browser through the Go side, then accepts', async () => {
    await renderApp();
    await start('one');
    entry('one', elicitationEntry('url'));
    expect(pending().dataset.count).toBe('1');
    await fireEvent.click(screen.getByTestId('elicitation-accept'));
    await settle();
    expect(app.OpenElicitationURL).toHaveBeenCalledWith('one', '9');
    expect(app.AnswerElicitation).toHaveBeenCalledWith('one', '9', 'accept', {});
    entry('one', elicitationEntry('urlCompleted'));
    expect(pending().dataset.count).toBe('0');
  });

  it('shows a failed answer in the card, not the banner, and keeps the values', async () => {
    app.AnswerElicitation.mockImplementationOnce(async () => {
      throw 'This question was already answered.';
    });
    await renderApp();
    await start('one');
    entry('one', elicitationEntry('form'));
    await fireEvent.click(screen.getByTestId('elicitation-decline'));
    await settle();
    expect(screen.getByTestId('elicitation-error').textContent).toContain('already answered');
    expect(app.AnswerElicitation).toHaveBeenCalledWith('one', '7', 'decline', {});
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });
});
