// The permission card's "Make a rule…" (issue 18): it reveals the rules the card offers, each saying
// what it will match; a click makes the rule through MakeFromRequest with the card's session,
// request, scope and decision. A read-only card offers none; a failure is reported and the card stays.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { PermissionRequest } from '../lib/protocol';
import { app, emit, ev } from '../test/harness';
import { freshPage, startSession, state } from '../test/page';
import PermissionPrompt from './PermissionPrompt.svelte';

const LABEL = 'reads in ~/project for Demo agent';
const request: PermissionRequest = {
  requestId: 'r1',
  toolCallId: 't1',
  title: 'Read notes.txt',
  toolKind: 'read',
  options: [
    { id: 'ok', name: 'Allow once', kind: 'allow_once' },
    { id: 'no', name: 'Reject', kind: 'reject_once' },
  ],
  ruleOptions: [
    { scope: 'kind', decision: 'allow', label: LABEL },
    { scope: 'kind', decision: 'reject', label: LABEL },
    { scope: 'folder', decision: 'allow', label: `reads in ~/project/docs for Demo agent` },
  ],
};

describe('permission card rules', () => {
  const page = freshPage();

  it('reveals the rules offered, saying what each matches, and makes the one clicked', async () => {
    await startSession(page.clock);
    emit(state('running'), ev({ kind: 'entry', entry: { id: 't1', kind: 'tool', turn: 1, title: 'Read notes.txt', toolKind: 'read' } }), ev({ kind: 'permission', ...request }));
    expect(screen.queryAllByTestId('permission-rule-option')).toHaveLength(0);
    const toggle = screen.getByTestId('permission-rules-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(toggle);
    const choices = screen.getAllByTestId('permission-rule-option');
    expect(choices.map((c) => `${c.dataset.scope}:${c.dataset.decision}`)).toEqual(['kind:allow', 'kind:reject', 'folder:allow']);
    expect(choices[0].textContent).toBe(`Always allow ${LABEL}`);
    expect(choices[1].textContent).toBe(`Always reject ${LABEL}`);
    // No form controls in the transcript.
    expect(screen.getByTestId('transcript').querySelector('input, select, textarea, form')).toBeNull();

    await fireEvent.click(choices[2]);
    await waitFor(() => expect(app.MakeFromRequest).toHaveBeenCalledWith('s1', 'r1', 'folder', 'allow'));
    expect(app.AnswerPermission).not.toHaveBeenCalled();
  });

  it('reports a failure like a failed answer and lets the person try again', async () => {
    app.MakeFromRequest.mockImplementation(async () => {
      throw 'could not make the rule: the disk is full';
    });
    await startSession(page.clock);
    emit(state('running'), ev({ kind: 'permission', ...request }));
    await fireEvent.click(screen.getByTestId('permission-rules-toggle'));
    await fireEvent.click(screen.getAllByTestId('permission-rule-option')[0]);
    await waitFor(() => expect(document.body.textContent).toContain('could not make the rule: the disk is full'));
    await waitFor(() => expect((screen.getAllByTestId('permission-rule-option')[0] as HTMLButtonElement).disabled).toBe(false));
  });

  it('offers no rules on a read-only card or without a maker', async () => {
    const make = vi.fn(async () => {});
    render(PermissionPrompt, { props: { request, readonly: true, onMakeRule: make } });
    expect(screen.queryByTestId('permission-rules-toggle')).toBeNull();
    cleanup();
    render(PermissionPrompt, { props: { request } });
    expect(screen.queryByTestId('permission-rules-toggle')).toBeNull();
    cleanup();
    render(PermissionPrompt, { props: { request, onMakeRule: make } });
    await fireEvent.click(screen.getByTestId('permission-rules-toggle'));
    await fireEvent.click(screen.getAllByTestId('permission-rule-option')[1]);
    expect(make).toHaveBeenCalledWith('r1', 'kind', 'reject');
  });
});
