// What a settled elicitation card says: how it ended, who ended it, and the values given, in
// the person's words. Secrets arrive masked from the Go side; a field Go marks secret is masked
// here again whatever arrives, so a value the Go side missed never reaches the page's text.
import type { Elicitation } from './protocol';
import { formFields, MASK, type Field } from './elicitation';

/** The states an elicitation leaves `open` for. */
export function isSettled(e: Pick<Elicitation, 'state'>): boolean {
  return e.state !== 'open';
}

/** How it ended: "Accepted", "Declined", … */
export function stateLabel(state: string): string {
  switch (state) {
    case 'open':
      return 'Waiting for you';
    case 'accepted':
      return 'Accepted';
    case 'declined':
      return 'Declined';
    case 'cancelled':
      return 'Cancelled';
    case 'completed':
      return 'Completed';
    case 'invalid':
      return 'Refused';
    default:
      return state ? state[0].toUpperCase() + state.slice(1) : 'Closed';
  }
}

/** Who ended it: "you", "stopped" (Stop), "agent", "terminal", "policy"; '' when unknown. */
export function answeredByLabel(by: string | null | undefined): string {
  switch (by) {
    case 'user':
      return 'you';
    case 'cancel':
      return 'stopped';
    case 'agent':
    case 'terminal':
    case 'policy':
      return by;
    default:
      return '';
  }
}

/** How it ended and who ended it: "Accepted by you", "Cancelled · stopped", "Completed · opened by you", "Refused". */
export function outcomeLabel(e: Pick<Elicitation, 'state' | 'answeredBy'>): string {
  const label = stateLabel(e.state);
  const by = answeredByLabel(e.answeredBy);
  // A completed link keeps who accepted it; the agent is the one that completed it.
  if (e.state === 'completed') return by && by !== 'agent' ? `Completed · opened by ${by}` : 'Completed by agent';
  if (!by) return label;
  return by === 'stopped' ? `${label} · stopped` : `${label} by ${by}`;
}

/** One answered value as the summary lists it. */
export interface AnswerLine {
  name: string;
  label: string;
  value: string;
  secret: boolean;
}

function show(v: unknown, f: Field | undefined): string {
  const title = (x: unknown) =>
    f && (f.kind === 'choice' || f.kind === 'multi') ? (f.options.find((o) => o.value === x)?.label ?? String(x)) : String(x);
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v)) return v.length === 0 ? 'None' : v.map(title).join(', ');
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return title(v);
}

/**
 * The answer's values in the fields' order (then any the fields do not name), labelled with
 * the fields' titles, choices by their titles, secrets masked.
 */
export function answerLines(e: Pick<Elicitation, 'fields' | 'answer'>): AnswerLine[] {
  const answer = e.answer ?? {};
  const parsed = formFields(e.fields);
  const fields = 'fields' in parsed ? parsed.fields : [];
  const byName = new Map(fields.map((f) => [f.name, f]));
  const names = [...fields.map((f) => f.name).filter((n) => n in answer), ...Object.keys(answer).filter((n) => !byName.has(n))];
  return names.map((name) => {
    const f = byName.get(name);
    const secret = f?.kind === 'text' && f.secret;
    return { name, label: f?.label ?? name, value: secret ? MASK : show(answer[name], f), secret };
  });
}
