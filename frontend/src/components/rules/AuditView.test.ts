// The audit view (issue 18): every decision, newest first, with who decided (data-decided-by as
// the service says it) in words; each filter calls Audit with it; a row opens its session.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditItem } from '../../lib/api';
import { app } from '../../test/harness';
import { resetPage, startSession } from '../../test/page';

let clock: ReturnType<typeof resetPage>;

function item(requestId: string, extra: Partial<AuditItem>): AuditItem {
  return {
    sessionId: 'saved-1',
    sessionTitle: 'Read the notes',
    agentId: 'claude',
    agentName: 'Claude Code',
    cwd: '/home/me/web',
    requestId,
    toolCallId: 't-' + requestId,
    title: 'Read <b>notes</b>.txt',
    toolKind: 'read',
    turn: 1,
    verdict: 'allowed',
    optionName: 'Allow',
    optionKind: 'allow_once',
    decidedBy: 'person',
    ruleId: '',
    ruleLabel: '',
    requestedAt: '2026-03-10T11:00:00Z',
    decidedAt: '2026-03-10T11:00:05Z',
    ...extra,
  };
}

beforeEach(() => {
  clock = resetPage();
  app.Audit.mockImplementation(async () => [
    item('4', { decidedBy: 'rule', ruleId: 'rule-1', ruleLabel: 'reads in ~/web for Claude Code' }),
    item('3', { decidedBy: 'stop', verdict: 'cancelled', optionKind: '' }),
    item('2', { decidedBy: 'cli', verdict: 'rejected' }),
    item('1', {}),
  ]);
});
afterEach(() => cleanup());

describe('audit view', () => {
  it('lists every decision with who decided, filters, and opens a session', async () => {
    await startSession(clock);
    await fireEvent.click(screen.getByTestId('audit-open'));
    await waitFor(() => expect(screen.getAllByTestId('audit-item')).toHaveLength(4));
    expect(app.Audit).toHaveBeenCalledWith({ sessionId: '', agentId: '', folder: '', verdict: '', decidedBy: '', ruleId: '', since: '' });
    const rows = screen.getAllByTestId('audit-item');
    expect(rows.map((r) => r.dataset.decidedBy)).toEqual(['rule', 'stop', 'cli', 'person']);
    expect(screen.getAllByTestId('audit-decided').map((d) => d.textContent)).toEqual([
      'by rule: reads in ~/web for Claude Code',
      'by Stop',
      'by --permissions',
      'by you',
    ]);
    expect(rows[0].textContent).toContain('Claude Code');
    expect(rows[0].textContent).toContain('web');
    expect(rows[2].textContent).toContain('rejected');
    // Titles are text, never markup.
    expect(screen.getByTestId('audit-view').querySelector('b')).toBeNull();
    expect(rows[0].textContent).toContain('Read <b>notes</b>.txt');

    const last = () => app.Audit.mock.calls[app.Audit.mock.calls.length - 1][0];
    const sel = screen.getByTestId('audit-filter-decided-by') as HTMLSelectElement;
    await fireEvent.change(sel, { target: { value: 'rule' } });
    await waitFor(() => expect(last()).toMatchObject({ decidedBy: 'rule' }));
    await fireEvent.change(screen.getByTestId('audit-filter-verdict'), { target: { value: 'allowed' } });
    await waitFor(() => expect(last()).toMatchObject({ decidedBy: 'rule', verdict: 'allowed' }));
    await fireEvent.change(screen.getByTestId('audit-filter-agent'), { target: { value: 'claude' } });
    await waitFor(() => expect(last()).toMatchObject({ agentId: 'claude' }));
    await fireEvent.change(screen.getByTestId('audit-filter-project'), { target: { value: '/home/me/web' } });
    await waitFor(() => expect(last()).toMatchObject({ folder: '/home/me/web' }));
    await fireEvent.change(screen.getByTestId('audit-filter-rule'), { target: { value: 'rule-1' } });
    await waitFor(() => expect(last()).toMatchObject({ ruleId: 'rule-1' }));
    await fireEvent.click(screen.getByTestId('audit-range-7d'));
    await waitFor(() => expect(last()).toEqual({ sessionId: '', agentId: 'claude', folder: '/home/me/web', verdict: 'allowed', decidedBy: 'rule', ruleId: 'rule-1', since: '7d' }));

    await fireEvent.click(screen.getAllByTestId('audit-open-session')[0]);
    await waitFor(() => expect(app.OpenHistoryPart).toHaveBeenCalled());
    expect(app.OpenHistoryPart.mock.calls[0][0]).toBe('saved-1');
    expect(screen.queryByTestId('audit-view')).toBeNull();
  });

  it('shows a failure in the error banner', async () => {
    app.Audit.mockImplementation(async () => {
      throw 'could not read the audit log: disk is on fire';
    });
    await startSession(clock);
    await fireEvent.click(screen.getByTestId('audit-open'));
    await waitFor(() => expect(document.body.textContent).toContain('disk is on fire'));
  });
});
