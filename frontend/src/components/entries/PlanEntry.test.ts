// A plan's step in progress spins only while a turn runs: after the turn ended (a stop, a crash,
// an error) it reads "not finished" and nothing on screen looks busy.
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry } from '../../lib/protocol';
import PlanEntry from './PlanEntry.svelte';

const plan = {
  id: 'e3',
  kind: 'plan',
  turn: 1,
  plan: [
    { content: 'Read the folder', status: 'completed', priority: 'medium' },
    { content: 'Propose an edit', status: 'in_progress', priority: 'high' },
    { content: 'Run the checks', status: 'pending', priority: 'low' },
  ],
} as unknown as Entry;

describe('PlanEntry', () => {
  afterEach(() => cleanup());

  it('spins the step in progress while the turn runs', () => {
    render(PlanEntry, { entry: plan, running: true });
    const root = screen.getByTestId('entry');
    expect(root.classList.contains('running')).toBe(true);
    expect(root.textContent).toContain('1 of 3 done');
    expect(root.querySelector('[data-status="in_progress"] .sr')?.textContent).toBe('(in progress)');
  });

  it('says "not finished" once the turn has ended', () => {
    render(PlanEntry, { entry: plan });
    const root = screen.getByTestId('entry');
    expect(root.classList.contains('running')).toBe(false);
    expect(root.querySelector('[data-status="in_progress"] .sr')?.textContent).toBe('(not finished)');
  });
});

describe('plans by id', () => {
  it('renders a Markdown plan sanitised, a file plan as text, and marks a removed one', () => {
    render(PlanEntry, {
      props: { entry: { id: 'e1', kind: 'plan', turn: 1, planDoc: { id: 'p1', type: 'markdown', markdown: '# Steps\n<img src=x onerror=alert(1)>' } } },
    });
    const card = screen.getByTestId('entry');
    expect(card.dataset.planId).toBe('p1');
    expect(card.querySelector('h1')?.textContent).toBe('Steps');
    expect(card.querySelector('img[onerror]')).toBeNull();
    cleanup();
    render(PlanEntry, {
      props: { entry: { id: 'e2', kind: 'plan', turn: 1, planDoc: { id: 'p2', type: 'file', uri: 'file:///p/<b>PLAN</b>.md', removed: true } } },
    });
    const file = screen.getByTestId('entry');
    expect(file.textContent).toContain('file:///p/<b>PLAN</b>.md');
    expect(file.querySelector('b')).toBeNull();
    expect(file.dataset.removed).toBe('true');
    expect(file.textContent).toContain('removed');
  });
});
