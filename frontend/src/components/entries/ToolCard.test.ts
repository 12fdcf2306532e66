import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Entry, ToolContent } from '../../lib/protocol';
import ToolCard from './ToolCard.svelte';

afterEach(() => cleanup());

function card(content: ToolContent[]): Entry {
  return { id: 'e2', kind: 'tool', turn: 1, toolKind: 'execute', title: 'Run', status: 'in_progress', content };
}

describe('tool card terminals', () => {
  it("shows one of our terminals' output as it grows, then how it ended", async () => {
    const view = render(ToolCard, { props: { entry: card([{ type: 'terminal', terminalId: 'term-1', output: 'building\n' }]) } });
    const term = screen.getByTestId('terminal');
    expect(term.dataset.terminalId).toBe('term-1');
    expect(term.querySelector('pre.terminal')?.textContent).toBe('building\n');
    expect(screen.queryByTestId('terminal-exit')).toBeNull();

    await view.rerender({
      entry: card([
        { type: 'terminal', terminalId: 'term-1', output: 'é done\n', truncated: true, exitStatus: { exitCode: null, signal: 'SIGKILL' } },
      ]),
    });
    expect(screen.getByTestId('terminal').querySelector('pre.terminal')?.textContent).toBe('é done\n');
    expect(screen.getByTestId('terminal').textContent).toContain('earlier output cut');
    expect(screen.getByTestId('terminal-exit').textContent).toBe('Killed by SIGKILL');
  });

  it('says the exit code of a command that printed nothing', () => {
    render(ToolCard, { props: { entry: card([{ type: 'terminal', terminalId: 'term-2', output: '', exitStatus: { exitCode: 0, signal: null } }]) } });
    expect(screen.getByTestId('terminal-exit').textContent).toBe('Exit code 0');
    expect(screen.getByTestId('terminal').querySelector('pre')).toBeNull();
  });

  it('shows a terminal it knows nothing of (an id from the agent) as a bare reference, as text', () => {
    render(ToolCard, { props: { entry: card([{ type: 'terminal', terminalId: '<b>x</b>' }]) } });
    expect(screen.queryByTestId('terminal')).toBeNull();
    expect(document.querySelector('.terminal-ref')?.textContent).toContain('<b>x</b>');
    expect(document.querySelector('.terminal-ref b')).toBeNull();
  });

  it('keeps output as text, never HTML', () => {
    render(ToolCard, { props: { entry: card([{ type: 'terminal', terminalId: 't', output: '<img src=x onerror=alert(1)>' }]) } });
    const pre = screen.getByTestId('terminal').querySelector('pre')!;
    expect(pre.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(pre.querySelector('img')).toBeNull();
  });
});

describe('tool card status', () => {
  it("says a call the turn ended around was not completed, next to the user's rejection", () => {
    const entry: Entry = { id: 'e3', kind: 'tool', turn: 1, toolKind: 'edit', title: 'Edit a.go', status: 'incomplete' };
    render(ToolCard, {
      props: { entry, decisions: [{ requestId: '7', toolCallId: 'e3', outcome: 'selected', optionId: 'no', optionName: 'Reject', optionKind: 'reject_once' }] },
    });
    expect(screen.getByTestId('tool-status').textContent).toBe('Not completed');
    expect(screen.getByTestId('entry').classList.contains('status-incomplete')).toBe(true);
    expect(screen.getByTestId('permission-decision').textContent).toContain('Rejected');
  });
});

describe('tool card name', () => {
  it("shows the tool's own name beside its kind, as text, and nothing when there is none", () => {
    render(ToolCard, { props: { entry: { ...card([]), toolName: '<b>Bash</b>' } } });
    expect(screen.getByTestId('tool-name').textContent).toBe('<b>Bash</b>');
    expect(document.querySelector('[data-testid=tool-name] b')).toBeNull();
    cleanup();
    render(ToolCard, { props: { entry: card([]) } });
    expect(screen.queryByTestId('tool-name')).toBeNull();
  });
});
