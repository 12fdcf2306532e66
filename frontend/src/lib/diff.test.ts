import { describe, expect, it } from 'vitest';
import { diffLines, diffStats, foldContext, splitLines, splitRows } from './diff';

const render = (old: string | null | undefined, neu: string) =>
  diffLines(old, neu).map((l) => (l.op === 'add' ? '+' : l.op === 'del' ? '-' : ' ') + l.text);

describe('diffLines', () => {
  it('marks every line added for a new file (oldText null or absent)', () => {
    expect(render(null, 'a\nb\n')).toEqual(['+a', '+b']);
    expect(render(undefined, 'a')).toEqual(['+a']);
  });

  it('finds a minimal line diff', () => {
    expect(render('a\nb\nc\nd\n', 'a\nx\nc\nd\ne\n')).toEqual([' a', '-b', '+x', ' c', ' d', '+e']);
  });

  it('numbers lines on both sides', () => {
    const lines = diffLines('one\ntwo\nthree', 'zero\none\nthree');
    expect(lines).toEqual([
      { op: 'add', text: 'zero', newNo: 1 },
      { op: 'same', text: 'one', oldNo: 1, newNo: 2 },
      { op: 'del', text: 'two', oldNo: 2 },
      { op: 'same', text: 'three', oldNo: 3, newNo: 3 },
    ]);
    expect(diffStats(lines)).toEqual({ added: 1, removed: 1 });
  });

  it('handles deletions to empty and CRLF', () => {
    expect(render('a\r\nb\r\n', '')).toEqual(['-a', '-b']);
    expect(splitLines('x\r\ny')).toEqual(['x', 'y']);
  });

  it('folds long unchanged runs', () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const neu = old.replace('l10', 'L10');
    const rows = foldContext(diffLines(old, neu), 3);
    const folds = rows.filter((r) => r.type === 'fold');
    expect(folds).toHaveLength(2);
    expect(rows.filter((r) => r.type === 'line' && r.line.op !== 'same')).toHaveLength(2);
  });
});

describe('splitRows', () => {
  it('pairs a run of removed lines with the added run after it, unchanged lines on both sides', () => {
    const lines = diffLines('a\nold1\nold2\nb\nc\n', 'a\nnew1\nb\nc\nadded\n');
    const rows = splitRows(foldContext(lines));
    const text = rows.map((r) => (r.type === 'fold' ? `fold ${r.count}` : `${r.left?.text ?? '_'}|${r.right?.text ?? '_'}`));
    expect(text).toEqual(['a|a', 'old1|new1', 'old2|_', 'b|b', 'c|c', '_|added']);
  });

  it('keeps folds as folds', () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const rows = splitRows(foldContext(diffLines(old, old.replace('l10', 'L10'))));
    expect(rows.filter((r) => r.type === 'fold').length).toBe(2);
    expect(rows.find((r) => r.type === 'pair' && r.left?.text === 'l10')).toMatchObject({ right: { text: 'L10' } });
  });
});
