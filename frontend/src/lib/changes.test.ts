// The Changes card's pure helpers: which turns get a card, counts, labels, grouping by folder,
// hunks as diff lines, and the revert requests.
import { describe, expect, it } from 'vitest';
import {
  actionLabel,
  canApply,
  changeLabel,
  fileKey,
  fileNote,
  groupByRoot,
  hunkLabel,
  hunkLines,
  planSummary,
  requestLabel,
  revertFile,
  revertHunk,
  revertSince,
  revertTurn,
  sameRequest,
  totals,
  totalsLabel,
  touchLabel,
  turnFiles,
  type Plan,
} from './changes';
import type { ChangedFile } from './protocol';

const file = (path: string, extra: Partial<ChangedFile> = {}): ChangedFile => ({ root: '/p', path, change: 'modified', added: 1, removed: 0, ...extra });

describe('turnFiles', () => {
  it('is the changes of a turn that changed files, else null', () => {
    const changes = { files: [file('a.txt')] };
    expect(turnFiles({ receipt: { stopReason: 'end_turn', startedAt: 0, endedAt: 0, wallMs: 0, changes } })).toBe(changes);
    expect(turnFiles({ receipt: { stopReason: 'end_turn', startedAt: 0, endedAt: 0, wallMs: 0, changes: { files: [], more: 2 } } })).not.toBeNull();
    expect(turnFiles({ receipt: { stopReason: 'end_turn', startedAt: 0, endedAt: 0, wallMs: 0, changes: { files: [] } } })).toBeNull();
    expect(turnFiles({ receipt: { stopReason: 'error', startedAt: 0, endedAt: 0, wallMs: 0, changes: { error: 'no ledger' } } })).toBeNull();
    expect(turnFiles({ receipt: null })).toBeNull();
    expect(turnFiles({})).toBeNull();
    expect(turnFiles(null)).toBeNull();
  });
});

describe('counts and labels', () => {
  it('adds up the lines and counts the files left out', () => {
    const t = totals({ files: [file('a', { added: 3, removed: 1 }), file('b', { added: 2, removed: 4 })], more: 5 });
    expect(t).toEqual({ files: 7, added: 5, removed: 5 });
    expect(totalsLabel(t)).toBe('7 files · +5 \u22125');
    expect(totalsLabel({ files: 1, added: 0, removed: 0 })).toBe('1 file · +0 \u22120');
  });

  it('words a change, a rename with its old path, and why there are no lines', () => {
    expect(changeLabel({ change: 'added' })).toBe('Added');
    expect(changeLabel({ change: 'renamed', from: 'old.txt' })).toBe('Renamed from old.txt');
    expect(changeLabel({ change: 'deleted' })).toBe('Deleted');
    expect(fileNote({ binary: true })).toBe('binary');
    expect(fileNote({ tooBig: true, binary: true })).toMatch(/too big/);
    expect(fileNote({})).toBe('');
  });

  it('keys a file by session, turn, folder and path', () => {
    expect(fileKey('s', 2, file('a'))).not.toBe(fileKey('s', 3, file('a')));
    expect(fileKey('s', 2, file('a'))).not.toBe(fileKey('s', 2, { root: '/q', path: 'a' }));
  });

  it('says who touched a file', () => {
    expect(touchLabel({ sessionId: 'x', title: 'Fix it', agentName: 'Demo agent', turn: 3, change: 'modified', at: 0 })).toBe(
      'Fix it · Demo agent · turn 3 · modified',
    );
    expect(touchLabel({ sessionId: 'x', title: '', agentName: '', turn: 1, change: 'added', at: 0 })).toBe('Untitled session · turn 1 · added');
  });
});

describe('groupByRoot', () => {
  it('puts the session folder first, sorts paths, and labels folders only when there are several', () => {
    const groups = groupByRoot([file('b.txt', { root: '/other/lib' }), file('z.txt'), file('a.txt')], '/p');
    expect(groups.map((g) => [g.root, g.label, g.files.map((f) => f.path)])).toEqual([
      ['/p', 'p', ['a.txt', 'z.txt']],
      ['/other/lib', 'lib', ['b.txt']],
    ]);
    expect(groupByRoot([file('a.txt')], '/p')[0].label).toBe('');
    expect(groupByRoot([], '/p')).toEqual([]);
  });
});

describe('hunks', () => {
  it("numbers a hunk's lines from its starts", () => {
    const h = { index: 0, oldStart: 3, oldLines: 3, newStart: 3, newLines: 3, lines: [' keep', '-old', '+new', ' tail', '\\ No newline at end of file'] };
    expect(hunkLines(h)).toEqual([
      { op: 'same', text: 'keep', oldNo: 3, newNo: 3 },
      { op: 'del', text: 'old', oldNo: 4 },
      { op: 'add', text: 'new', newNo: 4 },
      { op: 'same', text: 'tail', oldNo: 5, newNo: 5 },
    ]);
    expect(hunkLabel(h)).toBe('Lines 3\u20135');
    expect(hunkLabel({ ...h, newLines: 1 })).toBe('Line 3');
    expect(hunkLabel({ ...h, newStart: 0, newLines: 0, oldStart: 7, oldLines: 2 })).toBe('Lines 7\u20138');
    expect(hunkLines({ ...h, lines: null })).toEqual([]);
  });
});

describe('revert requests', () => {
  it('builds each scope', () => {
    expect(revertTurn('s', 2)).toEqual({ sessionId: 's', turn: 2, scope: 'turn' });
    expect(revertSince('s', 2)).toEqual({ sessionId: 's', turn: 2, scope: 'since' });
    expect(revertFile('s', 2, file('a.txt'))).toEqual({ sessionId: 's', turn: 2, scope: 'file', root: '/p', path: 'a.txt' });
    expect(revertHunk('s', 2, file('a.txt'), 1)).toEqual({ sessionId: 's', turn: 2, scope: 'hunk', root: '/p', path: 'a.txt', hunk: 1 });
  });

  it('compares requests field by field (a hunk 0 is the hunk left out)', () => {
    expect(sameRequest(revertHunk('s', 2, file('a'), 0), { sessionId: 's', turn: 2, scope: 'hunk', root: '/p', path: 'a' })).toBe(true);
    expect(sameRequest(revertTurn('s', 2), revertSince('s', 2))).toBe(false);
    expect(sameRequest(revertTurn('s', 2), null)).toBe(false);
  });

  it('says what each scope does', () => {
    expect(requestLabel(revertTurn('s', 2))).toBe('Revert what turn 2 changed');
    expect(requestLabel(revertSince('s', 2))).toMatch(/before turn 2.*later turns/);
    expect(requestLabel(revertFile('s', 2, file('a.txt')))).toBe('Revert a.txt to before turn 2');
    expect(requestLabel({ sessionId: 's', turn: 2, scope: 'undo', revert: 'r1' })).toBe('Undo the revert of turn 2');
  });
});

describe('plans', () => {
  const plan = (files: Plan['files'], conflicts = 0): Plan => ({ request: revertTurn('s', 1), files, conflicts, done: false });

  it('words what happens to each file', () => {
    expect(actionLabel({ root: '/p', path: 'a', action: 'restore' })).toBe('Restore its earlier content');
    expect(actionLabel({ root: '/p', path: 'a', action: 'delete' })).toMatch(/Delete/);
    expect(actionLabel({ root: '/p', path: 'a', action: 'skip', reason: 'already as it was' })).toBe('Left as it is: already as it was');
    expect(actionLabel({ root: '/p', path: 'a', action: 'restore', conflict: 'modified after the turn' })).toBe('Conflict: modified after the turn');
  });

  it('sums a plan up, and offers to apply only one without conflicts that writes something', () => {
    const ok = plan([
      { root: '/p', path: 'a', action: 'restore' },
      { root: '/p', path: 'b', action: 'restore' },
      { root: '/p', path: 'c', action: 'delete' },
    ]);
    expect(planSummary(ok)).toBe('2 files restored, 1 file deleted.');
    expect(canApply(ok)).toBe(true);
    const conflicted = plan([{ root: '/p', path: 'a', action: 'restore', conflict: 'changed' }], 1);
    expect(planSummary(conflicted)).toMatch(/^1 file was changed after the turn: nothing will be reverted/);
    expect(canApply(conflicted)).toBe(false);
    const nothing = plan([{ root: '/p', path: 'a', action: 'skip' }]);
    expect(planSummary(nothing)).toMatch(/Nothing to revert/);
    expect(canApply(nothing)).toBe(false);
    expect(canApply(plan(null))).toBe(false);
  });
});
