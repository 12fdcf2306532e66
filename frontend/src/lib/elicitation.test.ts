import { describe, expect, it } from 'vitest';
import { elicitationEntry } from '../test/elicitation';
import {
  buildContent,
  checkField,
  initialValues,
  formFields,
  MAX_FIELDS,
  toLocalInput,
  validate,
  type Field,
  type FormValues,
} from './elicitation';
import { answerLines, answeredByLabel, outcomeLabel, stateLabel } from './elicitation-summary';
import type { ElicitField } from './protocol';

function fieldsOf(fields: ElicitField[] | null | undefined): Field[] {
  const parsed = formFields(fields);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.fields;
}

/** The fixture form's fields, as Go sends them (elicit.Field). */
const formSchema = () => elicitationEntry('form').elicitation!.fields;

describe('formFields', () => {
  it('turns every supported property into a field, in order, with labels and required marks', () => {
    const fields = fieldsOf(formSchema());
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ['name', 'text'],
      ['email', 'text'],
      ['token', 'text'],
      ['replicas', 'number'],
      ['ratio', 'number'],
      ['public', 'boolean'],
      ['region', 'choice'],
      ['tier', 'choice'],
      ['features', 'multi'],
      ['start', 'text'],
    ]);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.name).toMatchObject({ label: 'Project name', description: 'Lowercase, no spaces', required: true, minLength: 2, maxLength: 20 });
    expect(byName.email).toMatchObject({ input: 'email', required: false });
    expect(byName.token).toMatchObject({ input: 'password', secret: true, required: true });
    expect(byName.replicas).toMatchObject({ integer: true, minimum: 1, maximum: 5 });
    expect(byName.ratio).toMatchObject({ integer: false });
    expect(byName.region).toMatchObject({ widget: 'radio', options: [{ value: 'eu', label: 'Europe' }, { value: 'us', label: 'United States' }] });
    expect(byName.tier).toMatchObject({ widget: 'select' });
    expect(byName.features).toMatchObject({ minItems: 1, maxItems: 2 });
    expect(byName.start).toMatchObject({ input: 'date' });
  });

  it('maps formats to input types and the secret mark to a password input', () => {
    const fields = fieldsOf([
      { name: 'u', type: 'string', format: 'uri' },
      { name: 't', type: 'string', format: 'date-time' },
      { name: 'w', type: 'string', secret: true },
      { name: 'x', type: 'string' },
    ]);
    expect(fields.map((f) => (f.kind === 'text' ? [f.input, f.secret] : null))).toEqual([
      ['url', false],
      ['datetime-local', false],
      ['password', true],
      ['text', false],
    ]);
  });

  it('labels choices by their titles, of strings and of arrays', () => {
    const [a, b] = fieldsOf([
      { name: 'a', type: 'string', choices: [{ value: 'x', title: 'Ex' }, { value: 'y', title: 'Why' }] },
      { name: 'b', type: 'array', choices: [{ value: 'p', title: 'Pea' }] },
    ]);
    expect(a).toMatchObject({ kind: 'choice', options: [{ value: 'x', label: 'Ex' }, { value: 'y', label: 'Why' }] });
    expect(b).toMatchObject({ kind: 'multi', options: [{ value: 'p', label: 'Pea' }] });
  });

  it('names a field of a type it cannot show, refuses too many, and never throws', () => {
    expect(formFields([{ name: 'f', type: 'object' }])).toMatchObject({ error: expect.stringContaining('"f"') });
    expect(formFields([{ name: 'g', type: undefined as unknown as string }])).toMatchObject({ error: expect.stringContaining('"g"') });
    const many = Array.from({ length: MAX_FIELDS + 1 }, (_, i) => ({ name: `f${i}`, type: 'string' }));
    expect(formFields(many)).toMatchObject({ error: expect.stringContaining(`${MAX_FIELDS}`) });
  });

  it('accepts an empty form and leaves a pattern JavaScript cannot compile to Go', () => {
    expect(formFields(null)).toEqual({ fields: [] });
    expect(formFields([])).toEqual({ fields: [] });
    const [f] = fieldsOf([{ name: 'p', type: 'string', pattern: '(?P<x>a)' }]);
    expect(f.kind === 'text' && f.regex).toBeUndefined();
    expect(checkField(f, 'anything')).toBe('');
  });
});

describe('initialValues', () => {
  it('fills defaults in and leaves the rest empty', () => {
    expect(initialValues(fieldsOf(formSchema()))).toEqual({
      name: '',
      email: '',
      token: '',
      replicas: '2',
      ratio: '',
      public: true,
      region: 'eu',
      tier: '',
      features: ['logs'],
      start: '',
    });
  });

  it('drops defaults that are not among the choices', () => {
    const fields = fieldsOf([
      { name: 'c', type: 'string', choices: [{ value: 'a', title: 'a' }], default: 'z' },
      { name: 'm', type: 'array', choices: [{ value: 'a', title: 'a' }, { value: 'b', title: 'b' }], default: ['b', 'z'] },
    ]);
    expect(initialValues(fields)).toEqual({ c: '', m: ['b'] });
  });

  it('shows a date-time default in local time, which buildContent sends back as the same instant', () => {
    const fields = fieldsOf([{ name: 't', type: 'string', format: 'date-time', default: '2026-08-01T10:30:00Z' }]);
    const values = initialValues(fields);
    expect(values.t).toBe(toLocalInput('2026-08-01T10:30:00Z'));
    expect(buildContent(fields, values)).toEqual({ t: '2026-08-01T10:30:00.000Z' });
  });
});

describe('validate', () => {
  const fields = fieldsOf(formSchema());
  const good = (): FormValues => ({ ...initialValues(fields), name: 'shop', token: 's3cret' });

  it('passes a complete form', () => {
    expect(validate(fields, good())).toEqual({});
  });

  it('names every problem by field', () => {
    const v: FormValues = { ...good(), name: '', token: '', replicas: '9', email: 'nope', features: [] };
    expect(validate(fields, v)).toEqual({
      name: 'Required',
      token: 'Required',
      replicas: 'At most 5',
      email: 'Not an email address',
      features: 'Choose at least 1',
    });
  });

  it('checks lengths, patterns, numbers and choices', () => {
    const by = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(checkField(by.name, 'a')).toBe('At least 2 characters');
    expect(checkField(by.name, 'a'.repeat(21))).toBe('At most 20 characters');
    expect(checkField(by.name, 'Has Space')).toMatch(/pattern/);
    expect(checkField(by.replicas, '1.5')).toBe('Must be a whole number');
    expect(checkField(by.replicas, '0')).toBe('At least 1');
    expect(checkField(by.replicas, 'x')).toBe('Not a number');
    expect(checkField(by.ratio, '0.25')).toBe('');
    expect(checkField(by.ratio, '')).toBe('');
    expect(checkField(by.tier, 'gold')).toBe('Not one of the choices');
    expect(checkField(by.features, ['logs', 'metrics', 'traces'])).toBe('Choose at most 2');
    expect(checkField(by.start, '2026-13-45')).toBe('Not a date');
    expect(checkField(by.start, '2026-08-01')).toBe('');
  });

  it('counts characters, not UTF-16 units', () => {
    const [f] = fieldsOf([{ name: 'e', type: 'string', maxLength: 2 }]);
    expect(checkField(f, '😀😀')).toBe('');
  });
});

describe('buildContent', () => {
  it('types every value as the fields say and leaves out optional empties', () => {
    const fields = fieldsOf(formSchema());
    const content = buildContent(fields, { ...initialValues(fields), name: 'shop', token: 's3cret', features: ['traces', 'logs'], ratio: '0.5' });
    expect(content).toEqual({
      name: 'shop',
      token: 's3cret',
      replicas: 2,
      ratio: 0.5,
      public: true,
      region: 'eu',
      features: ['logs', 'traces'],
    });
    expect(typeof content.replicas).toBe('number');
  });
});

describe('summary', () => {
  it('lists the answer with titles, choice titles, Yes/No, and masks secrets whatever arrives', () => {
    const e = elicitationEntry('formAccepted').elicitation!;
    e.answer!.token = 'leaked-in-clear';
    expect(answerLines(e).map((l) => [l.label, l.value])).toEqual([
      ['Project name', 'shop'],
      ['API token', '••••••'],
      ['Replicas', '3'],
      ['Public', 'No'],
      ['Region', 'United States'],
    ]);
    expect(answerLines(e).map((l) => l.value).join(' ')).not.toContain('leaked');
  });

  it('lists values the fields do not name after the rest', () => {
    expect(answerLines({ fields: null, answer: { x: ['a', 'b'], y: null } }).map((l) => [l.label, l.value])).toEqual([
      ['x', 'a, b'],
      ['y', ''],
    ]);
  });

  it('says who answered and how it ended', () => {
    expect(['user', 'cancel', 'agent', 'terminal', 'policy', null].map(answeredByLabel)).toEqual(['you', 'stopped', 'agent', 'terminal', 'policy', '']);
    expect(stateLabel('accepted')).toBe('Accepted');
    expect(stateLabel('invalid')).toBe('Refused');
    expect(stateLabel('weird')).toBe('Weird');
    expect(outcomeLabel({ state: 'accepted', answeredBy: 'user' })).toBe('Accepted by you');
    expect(outcomeLabel({ state: 'cancelled', answeredBy: 'cancel' })).toBe('Cancelled · stopped');
    expect(outcomeLabel({ state: 'declined', answeredBy: 'policy' })).toBe('Declined by policy');
    expect(outcomeLabel({ state: 'invalid' })).toBe('Refused');
    expect(outcomeLabel({ state: 'completed', answeredBy: 'user' })).toBe('Completed · opened by you');
    expect(outcomeLabel({ state: 'completed', answeredBy: 'agent' })).toBe('Completed by agent');
  });
});
