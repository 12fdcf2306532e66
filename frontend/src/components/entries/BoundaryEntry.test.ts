import { cleanup, render, screen } from '@testing-library/svelte';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry, SessionEvent } from '../../lib/protocol';
import { applyAll, emptyState } from '../../state/transcript';
import EntryView from '../EntryView.svelte';
import BoundaryEntry from './BoundaryEntry.svelte';

afterEach(() => cleanup());

const boundary = (b: Entry['boundary']): Entry => ({ id: 'e6', kind: 'boundary', turn: 2, boundary: b });

describe('context boundary', () => {
  it('says the agent restored its context, with nothing to open', () => {
    render(BoundaryEntry, { props: { entry: boundary({ kind: 'resumed' }) } });
    const el = screen.getByTestId('context-boundary');
    expect(el.dataset.kind).toBe('resumed');
    expect(el.textContent).toContain('Context restored by the agent');
    expect(el.querySelector('details')).toBeNull();
  });

  it('counts what the agent replayed and what was new', () => {
    render(BoundaryEntry, { props: { entry: boundary({ kind: 'replayed', replayed: 12, added: 3 }) } });
    const el = screen.getByTestId('context-boundary');
    expect(el.dataset.kind).toBe('replayed');
    expect(el.textContent).toContain('Replayed by the agent (12 updates, 3 new)');
  });

  it('shows the summary the agent was given, collapsed', () => {
    render(BoundaryEntry, { props: { entry: boundary({ kind: 'summarised', summary: 'Turn 1. The person wrote:\n> hi' }) } });
    const el = screen.getByTestId('context-boundary');
    expect(el.dataset.kind).toBe('summarised');
    expect(el.textContent).toContain('the agent was given a summary of the earlier turns');
    const details = el.querySelector('details');
    expect(details?.open).toBe(false);
    expect(details?.querySelector('pre')?.textContent).toBe('Turn 1. The person wrote:\n> hi');
  });

  it('is rendered for boundary entries, from the shared golden events', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const events = JSON.parse(readFileSync(resolve(here, '../../../../testdata/events/context_boundary.json'), 'utf8')) as SessionEvent[];
    const state = applyAll(emptyState('s1'), events);
    const entry = state.entries.find((e) => e.kind === 'boundary');
    expect(entry?.boundary?.kind).toBe('summarised');
    render(EntryView, { props: { entry: entry! } });
    expect(screen.getByTestId('context-boundary').dataset.kind).toBe('summarised');
  });
});
