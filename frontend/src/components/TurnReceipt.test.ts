// A turn's receipt under its divider: the one-line summary, and the lists it expands to.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Receipt } from '../lib/protocol';
import TurnEnd from './TurnEnd.svelte';

afterEach(cleanup);

const receipt: Receipt = {
  stopReason: 'end_turn',
  startedAt: 1_700_000_000_000,
  endedAt: 1_700_000_095_000,
  wallMs: 95_000,
  waitMs: 12_000,
  changes: {
    files: [
      { root: '/p', path: 'a.go', change: 'modified', added: 3, removed: 1 },
      { root: '/p', path: 'b.go', change: 'added', added: 10, removed: 0 },
    ],
    more: 1,
    notes: ['big.dat is over 50 MB: listed, not kept'],
  },
  commands: [
    { command: "sh -c 'exit 3'", toolCallId: 'e4', exitCode: 3 },
    { command: 'go test ./...', exitCode: 0 },
    { command: 'sleep 100', signal: 'SIGKILL' },
  ],
  moreCommands: 2,
  decisions: [{ title: 'Write a.go', toolCallId: 'e7', outcome: 'selected', option: 'Allow', kind: 'allow_once', decidedBy: 'user' }],
  questions: [{ message: 'Which branch?', mode: 'form', state: 'accepted', answeredBy: 'user' }],
  tokens: { input: 12_300, output: 456, total: 12_756 },
  cost: { amount: 0.75, currency: 'USD' },
};

describe('TurnReceipt', () => {
  it('sums a turn up in one line, and expands to its commands, decisions and questions', async () => {
    render(TurnEnd, { props: { turn: { turn: 2, stopReason: 'end_turn', receipt } } });
    expect(screen.getByTestId('turn-end').textContent?.trim()).toBe('Turn complete');
    const box = screen.getByTestId('turn-receipt');
    const summary = box.querySelector('button')!;
    const line = summary.textContent!.replace(/\s+/g, ' ').trim();
    for (const part of ['1 min 35 s', '12 s waiting on you', '3 files changed', '5 commands, 2 failed (exit 3, SIGKILL)', '1 decision', '1 question', '12k in · 456 out', '$0.7500']) {
      expect(line).toContain(part);
    }
    expect(screen.queryAllByTestId('receipt-command')).toHaveLength(0);
    expect(summary.getAttribute('aria-expanded')).toBe('false');

    await fireEvent.click(summary);
    expect(summary.getAttribute('aria-expanded')).toBe('true');
    const rows = screen.getAllByTestId('receipt-command');
    expect(rows.map((r) => r.textContent?.replace(/\s+/g, ' ').trim())).toEqual(["sh -c 'exit 3'exit 3", 'go test ./...exit 0', 'sleep 100SIGKILL']);
    expect(rows.map((r) => r.classList.contains('failed'))).toEqual([true, false, true]);
    expect(box.textContent).toContain('and 2 more commands');
    expect(screen.getByTestId('receipt-decision').textContent).toContain('Write a.go: Allow by you');
    expect(screen.getByTestId('receipt-question').textContent).toContain('Which branch?: accepted');
    expect(box.textContent).toContain('big.dat is over 50 MB');
    // No changed-file list here: the turn-changes card has it.
    expect(box.textContent).not.toContain('b.go');
    expect(box.querySelector('[data-testid="changed-file"], [data-testid="revert-file"]')).toBeNull();

    await fireEvent.click(summary);
    expect(screen.queryAllByTestId('receipt-command')).toHaveLength(0);
  });

  it('shows nothing for a turn without a receipt, and a plain line for a bare one', () => {
    render(TurnEnd, { props: { turn: { turn: 1, stopReason: 'end_turn' } } });
    expect(screen.queryByTestId('turn-receipt')).toBeNull();
    cleanup();
    render(TurnEnd, { props: { turn: { turn: 1, stopReason: 'end_turn', receipt: { stopReason: 'end_turn', startedAt: 0, endedAt: 4000, wallMs: 4000 } } } });
    const summary = screen.getByTestId('turn-receipt').querySelector('button')!;
    expect(summary.textContent?.trim()).toBe('4.0 s');
    expect(summary.disabled).toBe(true);
  });

  it('says when the changes could not be recorded', async () => {
    render(TurnEnd, { props: { turn: { turn: 3, stopReason: 'end_turn', receipt: { ...receipt, changes: { error: 'the folder is gone' } } } } });
    const summary = screen.getByTestId('turn-receipt').querySelector('button')!;
    expect(summary.textContent).toContain('changes not recorded');
    await fireEvent.click(summary);
    expect(screen.getByTestId('turn-receipt').textContent).toContain('Changes could not be recorded: the folder is gone');
  });
});

describe('TurnReceipt: who decided', () => {
  it('names the rule that decided, and the CLI', async () => {
    const r: Receipt = {
      ...receipt,
      decisions: [
        { title: 'Read a.go', outcome: 'selected', option: 'Allow', kind: 'allow_once', decidedBy: 'rule', rule: 'reads in ~/p for Claude Code' },
        { title: 'Run make', outcome: 'selected', option: 'Reject', kind: 'reject_once', decidedBy: 'cli' },
      ],
    };
    render(TurnEnd, { props: { turn: { turn: 3, stopReason: 'end_turn', receipt: r } } });
    await fireEvent.click(screen.getByTestId('turn-receipt').querySelector('button')!);
    expect(screen.getAllByTestId('receipt-decision').map((d) => d.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'Read a.go: Allow by rule: reads in ~/p for Claude Code',
      'Run make: Reject by --permissions',
    ]);
  });
});
