// A rule's decision in the transcript (issue 18): a request a rule answered never opened here
// (no permission event), yet its tool card gets the decision with the rule's words, live and in
// a reopened session; the CLI's --permissions says so.
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../lib/protocol';
import { applyAll, decisionLabel, emptyState, fromSnapshot } from './transcript';

const SID = 's1';
const OPTIONS = [
  { id: 'ok', name: 'Allow once', kind: 'allow_once', verdict: 'allow' },
  { id: 'no', name: 'Reject', kind: 'reject_once', verdict: 'reject' },
];
const LABEL = 'reads in ~/src/app for Claude Code';

function events(...specs: Array<Record<string, unknown> & { kind: SessionEvent['kind'] }>): SessionEvent[] {
  return specs.map((s, i) => ({ sessionId: SID, seq: i + 1, ...s }) as SessionEvent);
}

describe('rule decisions', () => {
  it('gives the tool card of a request a rule answered its decision, by the toolCallId of permission_done', () => {
    const s = applyAll(
      emptyState(SID),
      events(
        { kind: 'entry', entry: { id: 't2', kind: 'tool', turn: 1, title: 'Read b.txt' } },
        { kind: 'permission_done', requestId: 'r2', toolCallId: 't2', title: 'Read b.txt', options: OPTIONS, toolKind: 'read',
          decision: { requestId: 'r2', toolCallId: 't2', outcome: 'selected', optionId: 'ok', optionName: 'Allow once', optionKind: 'allow_once', verdict: 'allow', decidedBy: 'rule', ruleId: 'rule-1', ruleLabel: LABEL } },
      ),
    );
    expect(s.permissions).toHaveLength(0);
    expect(s.decisions).toEqual([
      { requestId: 'r2', toolCallId: 't2', outcome: 'selected', optionId: 'ok', optionKind: 'allow_once', optionName: 'Allow once', verdict: 'allow', decidedBy: 'rule', ruleId: 'rule-1', ruleLabel: LABEL },
    ]);
    expect(decisionLabel(s.decisions[0])).toBe(`Allowed by rule: ${LABEL}`);
  });

  it('words a rule rejection, the CLI and a reopened session', () => {
    const s = applyAll(
      emptyState(SID),
      events({ kind: 'permission_done', requestId: 'r3', toolCallId: 't3', options: OPTIONS,
        decision: { requestId: 'r3', toolCallId: 't3', outcome: 'selected', optionId: 'no', optionName: 'Reject', optionKind: 'reject_once', verdict: 'reject', decidedBy: 'rule', ruleId: 'rule-2', ruleLabel: LABEL } }),
    );
    expect(decisionLabel(s.decisions[0])).toBe(`Rejected by rule: ${LABEL}`);
    expect(decisionLabel({ requestId: 'x', toolCallId: 't', outcome: 'selected', optionKind: 'allow_once', decidedBy: 'cli' })).toBe('Allowed once (by --permissions)');
    expect(decisionLabel({ requestId: 'x', toolCallId: 't', outcome: 'selected', optionKind: 'allow_once', decidedBy: 'user' })).toBe('Allowed once');

    const saved = fromSnapshot({
      sessionId: SID, seq: 1, state: '', agentName: 'Claude Code', cwd: '/p', title: '', entries: [], permissions: [], turns: [],
      decisions: [{ requestId: 'r4', toolCallId: 't4', outcome: 'selected', optionId: 'ok', optionKind: 'allow_once', optionName: 'Allow once', verdict: 'allow', decidedBy: 'rule', ruleId: 'rule-1', ruleLabel: LABEL }],
    });
    expect(decisionLabel(saved.decisions[0])).toBe(`Allowed by rule: ${LABEL}`);
  });

  it('keeps the rules a permission offers', () => {
    const s = applyAll(
      emptyState(SID),
      events({ kind: 'permission', requestId: 'r1', toolCallId: 't1', title: 'Read a.txt', options: OPTIONS, toolKind: 'read', ruleOptions: [{ scope: 'kind', decision: 'allow', label: LABEL }] }),
    );
    expect(s.permissions[0].ruleOptions).toEqual([{ scope: 'kind', decision: 'allow', label: LABEL }]);
    expect(s.permissions[0].toolKind).toBe('read');
  });
});
