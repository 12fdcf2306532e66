// A turn's Changes card: its files with their counts, a diff opened with its hunks, "which
// sessions touched this file", and every revert previewed first: Confirm calls Revert, a
// conflict is shown without Confirm, the revert done offers Undo; nothing while a turn runs.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileDiff, Plan } from '../../lib/changes';
import type { TurnChanges } from '../../lib/protocol';
import { ChangesStore } from '../../state/changes.svelte';
import { app, settle } from '../../test/harness';
import ChangesCard from './ChangesCard.svelte';

const CHANGES: TurnChanges = {
  files: [
    { root: '/p', path: 'src/main.go', change: 'modified', added: 3, removed: 1 },
    { root: '/p', path: 'new.txt', change: 'added', added: 2, removed: 0 },
    { root: '/p', path: 'logo.png', change: 'added', added: 0, removed: 0, binary: true },
    { root: '/p', path: 'b.txt', from: 'a.txt', change: 'renamed', added: 0, removed: 0 },
  ],
  more: 2,
  notes: ['big.bin is over the size cap'],
};

const plan = (extra: Partial<Plan> = {}): Plan => ({
  request: { sessionId: 's1', turn: 2, scope: 'turn' },
  files: [
    { root: '/p', path: 'src/main.go', action: 'restore', diff: '@@ -1 +1 @@\n-new\n+old\n' },
    { root: '/p', path: 'new.txt', action: 'delete' },
  ],
  conflicts: 0,
  done: false,
  ...extra,
});

let openSession: ReturnType<typeof vi.fn<(id: string) => void>>;
function setup(running = false) {
  openSession = vi.fn<(id: string) => void>();
  const store = new ChangesStore({ openSession });
  render(ChangesCard, { props: { sessionId: 's1', turn: 2, changes: CHANGES, running, cwd: '/p', store } });
  return store;
}

beforeEach(() => {
  vi.clearAllMocks();
});
afterEach(cleanup);

describe('ChangesCard', () => {
  it('lists the files with how they changed and their counts', () => {
    setup();
    const card = screen.getByTestId('turn-changes');
    expect(card.dataset.turn).toBe('2');
    expect(card.textContent).toContain('6 files · +5 \u22121');
    const rows = screen.getAllByTestId('changed-file');
    expect(rows.map((r) => [r.dataset.path, r.dataset.change])).toEqual([
      ['b.txt', 'renamed'],
      ['logo.png', 'added'],
      ['new.txt', 'added'],
      ['src/main.go', 'modified'],
    ]);
    expect(rows[0].textContent).toContain('Renamed from a.txt');
    expect(rows[1].textContent).toContain('binary');
    expect(rows[1].textContent).not.toContain('+0');
    expect(rows[3].textContent).toContain('+3');
    expect(rows[3].textContent).toContain('\u22121');
    expect(card.textContent).toContain('and 2 more files not listed');
    expect(screen.getByTestId('changes-note').textContent).toBe('big.bin is over the size cap');
  });

  it('previews a turn revert and reverts on Confirm, then offers Undo', async () => {
    app.PreviewRevert.mockResolvedValue(plan() as never);
    app.Revert.mockResolvedValue(plan({ done: true, revertId: 'r1' }) as never);
    app.UndoRevert.mockResolvedValue(plan({ done: true, request: { sessionId: 's1', turn: 2, scope: 'undo', revert: 'r1' } }) as never);
    setup();
    await fireEvent.click(screen.getByTestId('revert-turn'));
    await settle();
    expect(app.PreviewRevert).toHaveBeenCalledWith({ sessionId: 's1', turn: 2, scope: 'turn' });
    expect(app.Revert).not.toHaveBeenCalled();
    const preview = screen.getByTestId('revert-preview');
    expect(preview.textContent).toContain('1 file restored, 1 file deleted.');
    const planned = screen.getAllByTestId('revert-plan-file');
    expect(planned.map((p) => [p.dataset.path, p.dataset.action])).toEqual([
      ['src/main.go', 'restore'],
      ['new.txt', 'delete'],
    ]);
    expect(screen.queryByTestId('revert-conflict')).toBeNull();

    await fireEvent.click(screen.getByTestId('revert-confirm'));
    await settle();
    expect(app.Revert).toHaveBeenCalledWith({ sessionId: 's1', turn: 2, scope: 'turn' });
    expect(screen.queryByTestId('revert-preview')).toBeNull();
    expect(screen.getByTestId('revert-done').textContent).toContain('Reverted 2 files.');

    await fireEvent.click(screen.getByTestId('revert-undo'));
    await settle();
    expect(app.UndoRevert).toHaveBeenCalledWith('s1', 'r1');
    expect(screen.getByTestId('revert-done').textContent).toContain('The revert was undone.');
    expect(screen.queryByTestId('revert-undo')).toBeNull();
  });

  it('shows a conflict and offers no Confirm', async () => {
    app.PreviewRevert.mockResolvedValue(
      plan({
        request: { sessionId: 's1', turn: 2, scope: 'since' },
        files: [{ root: '/p', path: 'src/main.go', action: 'restore', conflict: 'changed on disk after the turn' }],
        conflicts: 1,
      }) as never,
    );
    setup();
    await fireEvent.click(screen.getByTestId('revert-since'));
    await settle();
    expect(app.PreviewRevert).toHaveBeenCalledWith({ sessionId: 's1', turn: 2, scope: 'since' });
    const conflict = screen.getByTestId('revert-conflict');
    expect(conflict.dataset.path).toBe('src/main.go');
    expect(conflict.textContent).toContain('changed on disk after the turn');
    expect(screen.getByTestId('revert-preview').textContent).toContain('nothing will be reverted');
    expect(screen.queryByTestId('revert-confirm')).toBeNull();
    await fireEvent.click(screen.getByTestId('revert-cancel'));
    expect(screen.queryByTestId('revert-preview')).toBeNull();
  });

  it('moves focus into a preview and closes it on Escape, which goes no further', async () => {
    app.PreviewRevert.mockResolvedValue(plan() as never);
    setup();
    await fireEvent.click(screen.getByTestId('revert-turn'));
    await settle();
    const preview = screen.getByTestId('revert-preview');
    expect(document.activeElement).toBe(preview);
    const outer = vi.fn();
    window.addEventListener('keydown', outer);
    await fireEvent.keyDown(preview, { key: 'Escape' });
    window.removeEventListener('keydown', outer);
    expect(screen.queryByTestId('revert-preview')).toBeNull();
    expect(outer).not.toHaveBeenCalled();
    expect(app.Revert).not.toHaveBeenCalled();
  });

  it('shows a plan that conflicts when carried out, and an error worded by the backend', async () => {
    app.PreviewRevert.mockResolvedValueOnce(plan() as never);
    app.Revert.mockResolvedValue(plan({ files: [{ root: '/p', path: 'new.txt', action: 'delete', conflict: 'edited since' }], conflicts: 1 }) as never);
    setup();
    await fireEvent.click(screen.getByTestId('revert-turn'));
    await settle();
    await fireEvent.click(screen.getByTestId('revert-confirm'));
    await settle();
    expect(screen.getByTestId('revert-conflict').dataset.path).toBe('new.txt');
    expect(screen.queryByTestId('revert-confirm')).toBeNull();
    expect(screen.queryByTestId('revert-done')).toBeNull();

    app.PreviewRevert.mockRejectedValueOnce('a turn of this session is running: stop it or wait for it to end, then revert');
    await fireEvent.click(screen.getAllByTestId('revert-file')[0]);
    await settle();
    expect(screen.getByTestId('revert-error').textContent).toContain('a turn of this session is running');
  });

  it('disables every revert while a turn runs, saying why', () => {
    setup(true);
    for (const b of [screen.getByTestId('revert-turn'), screen.getByTestId('revert-since'), ...screen.getAllByTestId('revert-file')]) {
      expect((b as HTMLButtonElement).disabled).toBe(true);
    }
    expect(screen.getByTestId('revert-disabled-reason').textContent).toContain('running');
  });

  it("opens a file's diff with a revert per hunk", async () => {
    const diff: FileDiff = {
      root: '/p',
      path: 'src/main.go',
      change: 'modified',
      added: 1,
      removed: 1,
      before: 'a\nold\n',
      after: 'a\nnew\n',
      hunks: [{ index: 0, oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' a', '-old', '+new'] }],
    };
    app.ChangeDiff.mockResolvedValue(diff as never);
    app.PreviewRevert.mockResolvedValue(plan() as never);
    setup();
    const row = screen.getAllByTestId('changed-file').find((r) => r.dataset.path === 'src/main.go')!;
    await fireEvent.click(row.querySelector('[data-testid=changed-file-open]')!);
    await settle();
    expect(app.ChangeDiff).toHaveBeenCalledWith('s1', 2, '/p', 'src/main.go');
    const view = screen.getByTestId('diff');
    expect(view.textContent).toContain('Lines 1\u20132');
    expect(view.textContent).toContain('old');
    expect(view.textContent).toContain('new');
    await fireEvent.click(screen.getByTestId('revert-hunk'));
    await settle();
    expect(app.PreviewRevert).toHaveBeenCalledWith({ sessionId: 's1', turn: 2, scope: 'hunk', root: '/p', path: 'src/main.go', hunk: 0 });
  });

  it('lists the sessions that touched a file and opens one', async () => {
    app.FileSessions.mockResolvedValue([{ sessionId: 'old-1', title: 'Earlier work', agentName: 'Demo agent', turn: 1, change: 'added', at: 0 }]);
    setup();
    await fireEvent.click(screen.getAllByTestId('file-sessions')[2]);
    await settle();
    expect(app.FileSessions).toHaveBeenCalledWith('/p', 'new.txt');
    const touch = screen.getByTestId('file-touch');
    expect(touch.textContent).toContain('Earlier work · Demo agent · turn 1 · added');
    await fireEvent.click(touch);
    expect(openSession).toHaveBeenCalledWith('old-1');
  });
});
