// Linked sessions (issue 16): what the window says of a session that came from another (a fork,
// a rerun of an edited message, a continuation in another agent), from its transcript's forked
// boundary (a live session) or its history item (a saved one, which also knows whether the
// parent was deleted since).
import type { Boundary, Entry, HistoryItem, LinkKind } from './protocol';

/** Where a session came from, as the header's fork-link shows it. */
export interface ParentLink {
  parentId: string;
  parentTitle: string;
  parentAgent: string;
  turn: number;
  kind: LinkKind;
  /** The parent session is no longer in the history. */
  deleted: boolean;
}

/** The first forked boundary of entries (a linked session has one, where its own part starts). */
export function forkedBoundary(entries: readonly Entry[]): Boundary | null {
  for (const e of entries) {
    if (e.kind === 'boundary' && e.boundary?.kind === 'forked') return e.boundary;
  }
  return null;
}

/**
 * The link of a session: its history item's when it has one (it knows a deletion), else its
 * transcript's forked boundary; null for a session that came from none.
 */
export function parentLink(entries: readonly Entry[], item: HistoryItem | undefined): ParentLink | null {
  if (item?.parentId) {
    return {
      parentId: item.parentId,
      parentTitle: item.parentTitle ?? '',
      parentAgent: item.parentAgent ?? '',
      turn: item.parentTurn ?? 0,
      kind: item.linkKind ?? 'fork',
      deleted: !!item.parentDeleted,
    };
  }
  const b = forkedBoundary(entries);
  if (!b?.fromId) return null;
  return { parentId: b.fromId, parentTitle: b.from ?? '', parentAgent: b.fromAgent ?? '', turn: b.turn ?? 0, kind: b.link ?? 'fork', deleted: false };
}

/** "forked from", "edited from", "continued from": how the link reads before the parent's title. */
export function linkVerb(kind: LinkKind): string {
  switch (kind) {
    case 'rerun':
      return 'edited from';
    case 'continue-agent':
      return 'continued from';
  }
  return 'forked from';
}

/** The forked boundary in one line, for the transcript's divider. */
export function forkedLabel(b: Boundary): string {
  const title = b.from ? `“${b.from}”` : 'another session';
  let what: string;
  switch (b.link) {
    case 'rerun':
      what = `Edited and rerun from ${title}, turn ${b.turn ?? 0}`;
      break;
    case 'continue-agent':
      what = `Continued from ${title}${b.fromAgent ? ` (${b.fromAgent})` : ''}`;
      break;
    default:
      what = `Forked from ${title}, turn ${b.turn ?? 0}`;
  }
  if (b.forked) return `${what}: the agent forked its own session`;
  if (b.summary) return `${what}: the agent was given a summary of the earlier turns`;
  return what;
}
