// The subagent sessions of the history as a tree (ACP subagent_update; the Go side saves each child
// with its parent's id, HistoryItem.subagentOf), and the words a subagent card shows.
import type { HistoryItem, Subagent } from './protocol';
import { outcomeTone, type Tone } from './tone';

/** A history row in tree order: its depth under the session that started it (0: a top-level row). */
export interface TreeRow {
  item: HistoryItem;
  depth: number;
}

/**
 * Orders items so that each subagent session follows its parent, at any depth, children in the
 * list's order; a child whose parent is not in the list (a search hit, or past the list's end)
 * stays where it is, at the top level.
 */
export function historyTree(items: readonly HistoryItem[]): TreeRow[] {
  const ids = new Set(items.map((it) => it.id));
  const children = new Map<string, HistoryItem[]>();
  for (const it of items) {
    const p = it.subagentOf;
    if (p && p !== it.id && ids.has(p)) {
      const list = children.get(p);
      if (list) list.push(it);
      else children.set(p, [it]);
    }
  }
  const out: TreeRow[] = [];
  const placed = new Set<string>();
  const walk = (it: HistoryItem, depth: number) => {
    if (placed.has(it.id)) return; // a cycle in damaged data is not followed
    placed.add(it.id);
    out.push({ item: it, depth });
    for (const c of children.get(it.id) ?? []) walk(c, depth + 1);
  };
  for (const it of items) {
    const p = it.subagentOf;
    if (!p || p === it.id || !ids.has(p)) walk(it, 0);
  }
  for (const it of items) walk(it, 0); // what only a cycle reaches
  return out;
}

/** A subagent's work state in words: "working", "needs you", "done", "cancelled", … */
export function subagentStateText(s: Subagent): string {
  switch (s.state) {
    case 'running':
      return 'working';
    case 'requires_action':
      return 'needs you';
    case 'idle':
      if (!s.stopReason || s.stopReason === 'end_turn') return 'done';
      return s.stopReason.replace(/_/g, ' ');
    case 'unknown':
      return 'state unknown';
    case undefined:
    case null:
    case '':
      return 'started';
    default:
      return s.state.replace(/_/g, ' ');
  }
}

/** The tone of a subagent's state: as a saved session's outcome (working: running; done: its stop reason). */
export function subagentTone(s: Subagent): Tone {
  if (s.state === 'requires_action') return 'tone-warn';
  if (s.state === 'idle') return outcomeTone(s.stopReason || 'end_turn');
  return outcomeTone(s.state ?? '');
}
