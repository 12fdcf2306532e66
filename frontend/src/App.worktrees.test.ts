// Sessions in a git worktree in the page (issue 33): the top bar's switch follows what Go says of
// the folder (possible, remembered) and goes with Start; a session in a worktree shows its branch
// and status under the header and in its live row; Review & apply shows every file and what
// apply does, refuses while a file conflicts (git's markers shown) and applies otherwise; discard
// asks first.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import App from './App.svelte';
import type { ManualClock } from './lib/clock';
import { app, settle } from './test/harness';
import { FOLDER } from './test/mocks';
import { historyItem, resetPage } from './test/page';
import type { main } from '../wailsjs/go/models';

let clock: ManualClock;

const TREE = {
  repo: FOLDER,
  path: '/data/worktrees/project-1/s-h1',
  branch: 'agentdesk/s-h1',
  base: 'abcdef0123456789',
  project: FOLDER,
  ahead: 1,
  behind: 0,
  dirty: 2,
} as main.WorktreeView;

beforeEach(() => {
  clock = resetPage();
  app.ListHistory.mockImplementation(async () => [historyItem('h1', 'Refactor')]);
  app.Worktree.mockImplementation(async (id: string) => (id === 'h1' ? TREE : null));
});

afterEach(() => cleanup());

async function openSaved() {
  render(App, { props: { clock } });
  await waitFor(() => expect(screen.getAllByTestId('history-item').length).toBe(1));
  await fireEvent.click(screen.getAllByTestId('history-item')[0]);
  await settle();
  await waitFor(() => expect(screen.getByTestId('worktree-bar')).toBeTruthy());
}

describe('worktrees', () => {
  it('turns the switch on where Go remembers it and starts in a worktree', async () => {
    app.ChooseWorktree.mockImplementation(async () => ({ possible: true, chosen: true, uncommitted: 0 }));
    render(App, { props: { clock } });
    await settle();
    clock.advance(250);
    await settle();
    const toggle = screen.getByTestId('worktree-toggle');
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    await fireEvent.click(screen.getByTestId('start-session'));
    await waitFor(() => expect(app.StartSession).toHaveBeenCalledWith('demo', FOLDER, [], true, false));
  });

  it('asks whether to bring the uncommitted changes along, and does when asked to', async () => {
    app.ChooseWorktree.mockImplementation(async () => ({ possible: true, chosen: true, uncommitted: 3 }));
    render(App, { props: { clock } });
    await settle();
    clock.advance(250);
    await settle();
    const carry = (await waitFor(() => screen.getByTestId('worktree-carry'))) as HTMLInputElement;
    expect(carry.checked).toBe(false);
    expect(carry.closest('label')!.textContent).toContain('+3 uncommitted');
    await fireEvent.click(carry);
    await fireEvent.click(screen.getByTestId('start-session'));
    await waitFor(() => expect(app.StartSession).toHaveBeenCalledWith('demo', FOLDER, [], true, true));
  });

  it('keeps the switch off and says why outside a repository', async () => {
    render(App, { props: { clock } });
    await settle();
    clock.advance(250);
    await settle();
    const toggle = screen.getByTestId('worktree-toggle') as HTMLButtonElement;
    await waitFor(() => expect(toggle.title).toContain('not in a git repository'));
    expect(toggle.disabled).toBe(true);
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });

  it('shows the branch and status, and applies after a review', async () => {
    app.ReviewWorktree.mockImplementation(async () => ({
      files: [{ path: 'main.go', status: 'modified', added: 3, removed: 1, binary: false }],
      added: 3,
      removed: 1,
      diff: '--- a/main.go\n+++ b/main.go\n+func New() {}\n',
    }));
    app.PreviewApply.mockImplementation(async () => ({ files: [{ path: 'main.go', action: 'write' }], conflicts: 0, applied: false }));
    app.ApplyWorktree.mockImplementation(async () => ({ files: [{ path: 'main.go', action: 'write' }], conflicts: 0, applied: true }));
    await openSaved();
    const status = screen.getByTestId('worktree-status');
    expect(status.textContent).toContain('1 commit ahead · 2 files changed');
    expect(status.dataset.dirty).toBe('2');
    await fireEvent.click(screen.getByTestId('apply-session'));
    await waitFor(() => expect(screen.getByTestId('apply-file').dataset.action).toBe('write'));
    await fireEvent.click(screen.getByTestId('apply-confirm'));
    await waitFor(() => expect(screen.getByTestId('apply-done').textContent).toContain('Applied 1 file'));
    expect(app.ApplyWorktree).toHaveBeenCalledWith('h1');
  });

  it('shows a conflict with its markers and offers no apply', async () => {
    app.PreviewApply.mockImplementation(async () => ({
      files: [{ path: 'main.go', action: 'merge', conflict: 'you and the session both changed it, and the changes overlap', markers: '<<<<<<< your tree\nmine\n=======\ntheirs\n>>>>>>> session\n' }],
      conflicts: 1,
      applied: false,
    }));
    await openSaved();
    await fireEvent.click(screen.getByTestId('apply-session'));
    await waitFor(() => expect(screen.getByTestId('apply-markers').textContent).toContain('<<<<<<< your tree'));
    expect(screen.getByTestId('apply-file').dataset.conflict).toBe('true');
    expect((screen.getByTestId('apply-confirm') as HTMLButtonElement).disabled).toBe(true);
  });

  it("says a saved session's delete takes its worktree", async () => {
    render(App, { props: { clock } });
    await waitFor(() => expect(screen.getAllByTestId('history-item').length).toBe(1));
    await fireEvent.click(screen.getByTestId('history-delete'));
    await waitFor(() => expect(screen.getByTestId('history-delete-worktree').textContent).toContain('agentdesk/s-h1 goes too, with 1 commits and 2 changed files'));
  });

  it('discards only once the person confirms', async () => {
    await openSaved();
    await fireEvent.click(screen.getByTestId('discard-session'));
    expect(app.DiscardWorktree).not.toHaveBeenCalled();
    app.Worktree.mockImplementation(async () => ({ ...TREE, discarded: true }) as main.WorktreeView);
    await fireEvent.click(screen.getByTestId('discard-confirm'));
    await waitFor(() => expect(screen.getByTestId('worktree-status').dataset.discarded).toBe('true'));
    expect(app.DiscardWorktree).toHaveBeenCalledWith('h1');
  });
});
