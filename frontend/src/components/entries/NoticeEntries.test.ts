import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry } from '../../lib/protocol';
import EntryView from '../EntryView.svelte';

afterEach(() => cleanup());

const notice = (n: Entry['notice']): Entry => ({ id: 'e3', kind: 'notice', turn: 1, notice: n });
const compaction = (c: Entry['compaction']): Entry => ({ id: 'e4', kind: 'compaction', turn: 1, compaction: c });

describe('notice', () => {
  it('is a banner coloured by its severity, an alert when it warns', () => {
    render(EntryView, { props: { entry: notice({ severity: 'warning', title: 'MCP server unavailable', description: 'Continuing without it.' }) } });
    const el = screen.getByRole('alert');
    expect(el.dataset.kind).toBe('notice');
    expect(el.dataset.severity).toBe('warning');
    expect(el.classList.contains('warning')).toBe(true);
    expect(el.textContent).toContain('MCP server unavailable');
    expect(el.textContent).toContain('Continuing without it.');
  });

  it('reads an unknown severity as information, and never renders markup', () => {
    render(EntryView, { props: { entry: notice({ severity: 'shiny', title: '<b>bold</b>' }) } });
    const el = screen.getByRole('status');
    expect(el.classList.contains('info')).toBe(true);
    expect(el.querySelector('b')).toBeNull();
    expect(el.textContent).toContain('<b>bold</b>');
  });
});

describe('compaction', () => {
  it('is a divider saying what happened, with the summary kept collapsed', () => {
    render(EntryView, { props: { entry: compaction({ id: 'c1', status: 'completed', summary: 'Kept: the plan.' }) } });
    const el = screen.getByRole('separator');
    expect(el.dataset.testid).toBe('compaction');
    expect(el.dataset.status).toBe('completed');
    expect(el.getAttribute('aria-label')).toBe('Context compacted');
    const details = el.querySelector('details');
    expect(details?.open).toBe(false);
    expect(details?.querySelector('pre')?.textContent).toBe('Kept: the plan.');
  });

  it('says a compaction is running, and shows why one failed', () => {
    render(EntryView, { props: { entry: compaction({ id: 'c1', status: 'in_progress' }) } });
    expect(screen.getByRole('separator').textContent).toContain('Compacting the context…');
    cleanup();
    render(EntryView, { props: { entry: compaction({ id: 'c2', status: 'failed', error: 'context too large' }) } });
    const el = screen.getByRole('separator');
    expect(el.textContent).toContain('Context compaction failed');
    expect(el.textContent).toContain('context too large');
    expect(el.querySelector('details')).toBeNull();
  });

  it('without a status yet says only that a compaction happened', () => {
    render(EntryView, { props: { entry: compaction({ id: 'c3', summary: 'early' }) } });
    expect(screen.getByRole('separator').getAttribute('aria-label')).toBe('Context compaction');
  });
});
