import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ElicitationAction, Entry } from '../../lib/protocol';
import { elicitationEntry } from '../../test/elicitation';
import ElicitationCard from './ElicitationCard.svelte';

afterEach(() => cleanup());

type Answer = (requestId: string, action: ElicitationAction, content: Record<string, unknown> | null) => Promise<void>;

function setup(entry: Entry, extra: { readonly?: boolean; answer?: Answer; openUrl?: (requestId: string) => Promise<void> } = {}) {
  const onElicit = vi.fn<Answer>(extra.answer ?? (async () => {}));
  const onOpenUrl = vi.fn(extra.openUrl ?? (async (_requestId: string) => {}));
  const view = render(ElicitationCard, { props: { entry, onElicit, onOpenUrl, readonly: extra.readonly ?? false } });
  return { view, onElicit, onOpenUrl };
}

const field = (name: string) => document.querySelector<HTMLElement>(`[data-testid="elicitation-field"][data-name="${name}"]`)!;
const input = (name: string) => field(name).querySelector<HTMLInputElement>('input, select')!;

async function type(name: string, value: string) {
  await fireEvent.input(input(name), { target: { value } });
}

describe('a form elicitation', () => {
  it('renders every field with the right input, defaults filled in and required marked', () => {
    setup(elicitationEntry('form'));
    const card = screen.getByTestId('elicitation');
    expect(card.dataset.mode).toBe('form');
    expect(card.dataset.state).toBe('open');
    expect(card.textContent).toContain('Set up the deployment');
    expect(screen.getAllByTestId('elicitation-field').map((f) => f.dataset.name)).toEqual([
      'name',
      'email',
      'token',
      'replicas',
      'ratio',
      'public',
      'region',
      'tier',
      'features',
      'start',
    ]);
    expect(input('email').type).toBe('email');
    expect(input('token').type).toBe('password');
    expect(input('replicas').type).toBe('number');
    expect(input('replicas').step).toBe('1');
    expect(input('replicas').value).toBe('2');
    expect(input('start').type).toBe('date');
    expect(input('public').checked).toBe(true);
    expect(field('region').querySelectorAll('input[type=radio]')).toHaveLength(2);
    expect((field('region').querySelector('input[value=eu]') as HTMLInputElement).checked).toBe(true);
    expect(input('tier').tagName).toBe('SELECT');
    const features = Array.from(field('features').querySelectorAll<HTMLInputElement>('input[type=checkbox]'));
    expect(features.map((c) => c.checked)).toEqual([true, false, false]);
    expect(field('name').textContent).toContain('Project name');
    expect(field('name').textContent).toContain('*');
    expect(field('name').textContent).toContain('Lowercase, no spaces');
    expect(field('email').textContent).not.toContain('*');
    // Never a link that could navigate the webview.
    expect(card.querySelector('a')).toBeNull();
  });

  it('sends accept with the values typed as the schema says', async () => {
    const { onElicit } = setup(elicitationEntry('form'));
    await type('name', 'shop');
    await type('token', 's3cret');
    await type('replicas', '3');
    await type('ratio', '0.5');
    await fireEvent.click(input('public'));
    await fireEvent.click(field('region').querySelector('input[value=us]')!);
    await fireEvent.change(input('tier'), { target: { value: 'pro' } });
    await fireEvent.click(field('features').querySelector('input[type=checkbox]:not(:checked)')!);
    await fireEvent.click(screen.getByTestId('elicitation-accept'));
    expect(onElicit).toHaveBeenCalledTimes(1);
    expect(onElicit).toHaveBeenCalledWith('7', 'accept', {
      name: 'shop',
      token: 's3cret',
      replicas: 3,
      ratio: 0.5,
      public: false,
      region: 'us',
      tier: 'pro',
      features: ['logs', 'metrics'],
    });
    // In flight until the entry settles: no second answer.
    expect((screen.getByTestId('elicitation-accept') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('elicitation-decline') as HTMLButtonElement).disabled).toBe(true);
  });

  it('blocks a submit with required fields missing, says why beside them and focuses the first', async () => {
    const { onElicit } = setup(elicitationEntry('form'));
    await type('email', 'not-an-email');
    await fireEvent.click(screen.getByTestId('elicitation-accept'));
    expect(onElicit).not.toHaveBeenCalled();
    expect(input('name').getAttribute('aria-invalid')).toBe('true');
    expect(field('name').textContent).toContain('Required');
    expect(field('token').textContent).toContain('Required');
    expect(field('email').textContent).toContain('Not an email address');
    expect(input('ratio').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(input('name'));
    expect(input('name').getAttribute('aria-describedby')).toContain('error');

    // Fixing it clears the message as it is typed; then Enter in a field sends.
    await type('name', 'shop');
    expect(field('name').textContent).not.toContain('Required');
    await type('token', 'x');
    await type('email', 'me@example.com');
    await fireEvent.keyDown(input('token'), { key: 'Enter' });
    expect(onElicit).toHaveBeenCalledWith('7', 'accept', expect.objectContaining({ name: 'shop', token: 'x', email: 'me@example.com' }));
  });

  it('declines without values, and Escape does nothing', async () => {
    const { onElicit } = setup(elicitationEntry('form'));
    await type('name', 'half typed');
    await fireEvent.keyDown(input('name'), { key: 'Escape' });
    expect(onElicit).not.toHaveBeenCalled();
    expect(input('name').value).toBe('half typed');
    await fireEvent.click(screen.getByTestId('elicitation-decline'));
    expect(onElicit).toHaveBeenCalledWith('7', 'decline', null);
  });

  it('shows a failed answer in the card and keeps what was typed', async () => {
    const { onElicit } = setup(elicitationEntry('form'), {
      answer: async () => {
        throw new Error('The agent has gone.');
      },
    });
    await type('name', 'shop');
    await type('token', 'abc');
    await fireEvent.click(screen.getByTestId('elicitation-accept'));
    await Promise.resolve();
    await Promise.resolve();
    expect((await screen.findByTestId('elicitation-error')).textContent).toContain('The agent has gone.');
    expect(input('name').value).toBe('shop');
    expect(input('token').value).toBe('abc');
    expect((screen.getByTestId('elicitation-accept') as HTMLButtonElement).disabled).toBe(false);
    expect(onElicit).toHaveBeenCalledTimes(1);
  });

  it('in a saved session is shown but cannot be answered', () => {
    setup(elicitationEntry('form'), { readonly: true });
    expect((screen.getByTestId('elicitation-accept') as HTMLButtonElement).disabled).toBe(true);
    expect(input('name').disabled).toBe(true);
  });

  it('offers only Decline for a field of a type it cannot render, saying why', async () => {
    const entry = elicitationEntry('form');
    entry.elicitation!.fields = [{ name: 'f', type: 'object' }];
    const { onElicit } = setup(entry);
    expect(screen.getByTestId('elicitation').textContent).toContain('field "f"');
    expect(screen.queryByTestId('elicitation-accept')).toBeNull();
    await fireEvent.click(screen.getByTestId('elicitation-decline'));
    expect(onElicit).toHaveBeenCalledWith('7', 'decline', null);
  });
});

describe('a url elicitation', () => {
  it('shows the whole URL with its host emphasised and opens it only on consent, then accepts', async () => {
    const { onElicit, onOpenUrl } = setup(elicitationEntry('url'));
    const card = screen.getByTestId('elicitation');
    expect(card.dataset.mode).toBe('url');
    expect(card.querySelector('a')).toBeNull();
    expect(screen.getByTestId('elicitation-host').textContent).toBe('github.com');
    expect(screen.getByTestId('elicitation-url').textContent).toBe(
      'https://github.com/login/oauth/authorize?client_id=abc123&state=xyz&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fcallback',
    );
    expect(card.textContent).toContain('system browser');
    expect(onOpenUrl).not.toHaveBeenCalled();

    await fireEvent.click(within(card).getByTestId('elicitation-accept'));
    await Promise.resolve();
    await Promise.resolve();
    expect(onOpenUrl).toHaveBeenCalledWith('9');
    expect(onElicit).toHaveBeenCalledWith('9', 'accept', null);
    expect(onOpenUrl.mock.invocationCallOrder[0]).toBeLessThan(onElicit.mock.invocationCallOrder[0]);
  });

  it('emphasises the real host, not a user@ prefix that looks like one', () => {
    const entry = elicitationEntry('url');
    entry.elicitation!.url = 'https://github.com@evil.example/login';
    setup(entry);
    expect(screen.getByTestId('elicitation-host').textContent).toBe('evil.example');
  });

  it('does not accept when the browser could not be opened, and says why', async () => {
    const { onElicit } = setup(elicitationEntry('url'), {
      openUrl: async () => {
        throw new Error('No browser to open it with.');
      },
    });
    await fireEvent.click(screen.getByTestId('elicitation-accept'));
    expect((await screen.findByTestId('elicitation-error')).textContent).toContain('No browser');
    expect(onElicit).not.toHaveBeenCalled();
  });

  it('declines', async () => {
    const { onElicit, onOpenUrl } = setup(elicitationEntry('url'));
    await fireEvent.click(screen.getByTestId('elicitation-decline'));
    expect(onElicit).toHaveBeenCalledWith('9', 'decline', null);
    expect(onOpenUrl).not.toHaveBeenCalled();
  });
});

describe('a settled elicitation', () => {
  it('collapses to the question, the values (secrets masked) and who answered', async () => {
    const { view } = setup(elicitationEntry('form'));
    expect(screen.getAllByTestId('elicitation-field')).toHaveLength(10);
    const accepted = elicitationEntry('formAccepted');
    accepted.elicitation!.answer!.token = 'plain-secret'; // even if one arrived unmasked
    await view.rerender({ entry: accepted });
    const card = screen.getByTestId('elicitation');
    expect(card.dataset.state).toBe('accepted');
    expect(screen.queryAllByTestId('elicitation-field')).toHaveLength(0);
    expect(screen.queryByTestId('elicitation-accept')).toBeNull();
    expect(card.textContent).toContain('Set up the deployment');
    expect(screen.getByTestId('elicitation-outcome').textContent).toContain('Accepted by you');
    expect(screen.getAllByTestId('elicitation-answer').map((a) => a.textContent)).toEqual(['shop', '••••••', '3', 'No', 'United States']);
    expect(card.textContent).not.toContain('plain-secret');
  });

  it('says a stopped one was cancelled by Stop, and a completed url one by the agent', () => {
    setup(elicitationEntry('cancelled'));
    expect(screen.getByTestId('elicitation-outcome').textContent).toBe('Cancelled · stopped');
    cleanup();
    setup(elicitationEntry('urlCompleted'));
    expect(screen.getByTestId('elicitation').dataset.mode).toBe('url');
    expect(screen.getByTestId('elicitation-outcome').textContent).toBe('Completed by agent');
  });

  it('shows a refused schema as such, with the message', () => {
    setup(elicitationEntry('invalid'));
    const card = screen.getByTestId('elicitation');
    expect(card.dataset.state).toBe('invalid');
    expect(card.textContent).toContain('Pick a file');
    expect(card.textContent).toContain('type object is not allowed');
    expect(screen.queryByTestId('elicitation-accept')).toBeNull();
  });
});

describe('the keyboard', () => {
  it('goes to the first field when a form appears, unless the person is typing elsewhere', () => {
    setup(elicitationEntry('form'));
    expect(document.activeElement).toBe(input('name'));
    cleanup();
    const composer = document.body.appendChild(document.createElement('textarea'));
    composer.focus();
    setup(elicitationEntry('form'));
    expect(document.activeElement).toBe(composer);
    composer.remove();
  });

  it('never goes to a url card by itself (Enter must not consent)', () => {
    setup(elicitationEntry('url'));
    expect(document.activeElement).toBe(document.body);
  });
});
