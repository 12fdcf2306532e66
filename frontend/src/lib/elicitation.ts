// Form elicitations (ACP elicitation/create, mode "form"): the fields the Go side parsed from the
// agent's schema (Elicitation.fields, backend/acp/elicit) turned into what the card renders,
// their starting values, the immediate per-field feedback and the typed content sent back with
// `accept`. Pure: no DOM, no Svelte.
//
// The page never reads the schema itself: Go validated it (types, choices, bounds, defaults) and
// refused a malformed one before it reached here. What is left here is presentation (labels, the
// widget of each field) and feedback while the person types, from the constraints Go sent. Go
// checks the answer again on submit and is the authority: its refusal names the field. Form
// values are kept as the inputs hold them (numbers as typed text, so nothing typed is lost to a
// parse); buildContent turns them into the JSON the fields ask for and leaves out optional
// fields left empty.
import type { ElicitField } from './protocol';

/** At most this many fields are rendered; a schema with more is refused (no card scrolls forever). */
export const MAX_FIELDS = 64;
/** At most this many choices per field. */
export const MAX_OPTIONS = 256;
/** Labels, help and choice titles longer than this are cut (with an ellipsis). */
export const MAX_TEXT = 500;
/** What a secret value shows as once answered. */
export const MASK = '••••••';

export interface Choice {
  value: string;
  label: string;
}

interface FieldBase {
  name: string;
  /** The schema's title, else the property name. */
  label: string;
  description?: string;
  required: boolean;
}

/** A string: `input` is the <input type> that fits its format (password for secrets). */
export interface TextField extends FieldBase {
  kind: 'text';
  input: 'text' | 'email' | 'url' | 'date' | 'datetime-local' | 'password';
  format?: string;
  secret: boolean;
  minLength?: number;
  maxLength?: number;
  /** The pattern as the agent gave it, and compiled (absent when it does not compile). */
  pattern?: string;
  regex?: RegExp;
  default?: string;
}

export interface NumberField extends FieldBase {
  kind: 'number';
  integer: boolean;
  minimum?: number;
  maximum?: number;
  default?: number;
}

export interface BooleanField extends FieldBase {
  kind: 'boolean';
  default?: boolean;
}

/** One of a string's enum values: radio buttons for a few, a select for more. */
export interface ChoiceField extends FieldBase {
  kind: 'choice';
  options: Choice[];
  widget: 'radio' | 'select';
  default?: string;
}

/** An array of enum strings: a checkbox group. */
export interface MultiField extends FieldBase {
  kind: 'multi';
  options: Choice[];
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

export type Field = TextField | NumberField | BooleanField | ChoiceField | MultiField;

/** A field's value as its input holds it. */
export type FieldValue = string | boolean | string[];
export type FormValues = Record<string, FieldValue>;
/** Field name -> what is wrong with its value. */
export type FormErrors = Record<string, string>;

/** Up to this many choices show as radio buttons. */
const RADIO_MAX = 4;

function text(v: unknown): string | undefined {
  if (typeof v !== 'string' || !v.trim()) return undefined;
  return v.length > MAX_TEXT ? v.slice(0, MAX_TEXT) + '…' : v;
}

const INPUTS: Record<string, TextField['input']> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined; // Go's syntax, not JavaScript's: Go still checks it on submit
  }
}

/** One of Go's fields as the card renders it, or what this window cannot show. */
function field(f: ElicitField): Field | string {
  const base = { name: f.name, label: text(f.title) ?? f.name, description: text(f.description), required: f.required === true };
  const options = (f.choices ?? []).slice(0, MAX_OPTIONS).map((c) => ({ value: c.value, label: text(c.title) ?? c.value }));
  const def = f.default;
  switch (f.type) {
    case 'string': {
      if (options.length > 0) {
        const chosen = typeof def === 'string' && options.some((o) => o.value === def) ? def : undefined;
        return { ...base, kind: 'choice', options, widget: options.length <= RADIO_MAX ? 'radio' : 'select', default: chosen };
      }
      const secret = f.secret === true;
      return {
        ...base,
        kind: 'text',
        input: secret ? 'password' : (INPUTS[f.format ?? ''] ?? 'text'),
        format: f.format || undefined,
        secret,
        minLength: f.minLength ?? undefined,
        maxLength: f.maxLength ?? undefined,
        pattern: f.pattern || undefined,
        regex: f.pattern ? compile(f.pattern) : undefined,
        default: typeof def === 'string' ? def : undefined,
      };
    }
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: f.type === 'integer',
        minimum: f.minimum ?? undefined,
        maximum: f.maximum ?? undefined,
        default: typeof def === 'number' ? def : undefined,
      };
    case 'boolean':
      return { ...base, kind: 'boolean', default: typeof def === 'boolean' ? def : undefined };
    case 'array': {
      const known = new Set(options.map((o) => o.value));
      const chosen = Array.isArray(def) ? def.filter((v): v is string => typeof v === 'string' && known.has(v)) : undefined;
      return { ...base, kind: 'multi', options, minItems: f.minItems ?? undefined, maxItems: f.maxItems ?? undefined, default: chosen };
    }
    default:
      return `field "${f.name}" has a type this window cannot show (${JSON.stringify(f.type ?? null).slice(0, 40)})`;
  }
}

/**
 * The form of an elicitation, from the fields Go parsed (in the agent's order), or an error
 * naming a field this window cannot show (a type newer than this page). Never throws.
 */
export function formFields(fields: readonly ElicitField[] | null | undefined): { fields: Field[] } | { error: string } {
  const list = fields ?? [];
  if (list.length > MAX_FIELDS) return { error: `the form has more than ${MAX_FIELDS} fields` };
  const out: Field[] = [];
  for (const f of list) {
    const got = field(f);
    if (typeof got === 'string') return { error: got };
    out.push(got);
  }
  return { fields: out };
}

/** "2026-08-01T10:30:00Z" as a datetime-local input's value (local time), or '' when unreadable. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The values the form starts with: the schema's defaults, else empty (false, no choice). */
export function initialValues(fields: readonly Field[]): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    switch (f.kind) {
      case 'text':
        out[f.name] = f.default === undefined ? '' : f.input === 'datetime-local' ? toLocalInput(f.default) : f.default;
        break;
      case 'number':
        out[f.name] = f.default === undefined ? '' : String(f.default);
        break;
      case 'boolean':
        out[f.name] = f.default ?? false;
        break;
      case 'choice':
        out[f.name] = f.default ?? '';
        break;
      case 'multi':
        out[f.name] = [...(f.default ?? [])];
        break;
    }
  }
  return out;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isURL(v: string): boolean {
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What is wrong with one value, or '' when it is fine. */
export function checkField(f: Field, value: FieldValue | undefined): string {
  switch (f.kind) {
    case 'text': {
      const v = typeof value === 'string' ? value : '';
      if (v === '') return f.required ? 'Required' : '';
      const len = [...v].length;
      if (f.minLength !== undefined && len < f.minLength) return `At least ${plural(f.minLength, 'character')}`;
      if (f.maxLength !== undefined && len > f.maxLength) return `At most ${plural(f.maxLength, 'character')}`;
      if (f.format === 'email' && !EMAIL.test(v)) return 'Not an email address';
      if (f.format === 'uri' && !isURL(v)) return 'Not a URL';
      if (f.format === 'date' && (!DATE.test(v) || Number.isNaN(Date.parse(v)))) return 'Not a date';
      if (f.format === 'date-time' && Number.isNaN(new Date(v).getTime())) return 'Not a date and time';
      if (f.regex && !f.regex.test(v)) return `Does not match the expected pattern ${f.pattern}`;
      return '';
    }
    case 'number': {
      const v = typeof value === 'string' ? value.trim() : '';
      if (v === '') return f.required ? 'Required' : '';
      const n = Number(v);
      if (!Number.isFinite(n)) return 'Not a number';
      if (f.integer && !Number.isInteger(n)) return 'Must be a whole number';
      if (f.minimum !== undefined && n < f.minimum) return `At least ${f.minimum}`;
      if (f.maximum !== undefined && n > f.maximum) return `At most ${f.maximum}`;
      return '';
    }
    case 'boolean':
      return '';
    case 'choice': {
      const v = typeof value === 'string' ? value : '';
      if (v === '') return f.required ? 'Required' : '';
      return f.options.some((o) => o.value === v) ? '' : 'Not one of the choices';
    }
    case 'multi': {
      const v = Array.isArray(value) ? value : [];
      if (f.minItems !== undefined && v.length < f.minItems) return `Choose at least ${f.minItems}`;
      if (f.maxItems !== undefined && v.length > f.maxItems) return `Choose at most ${f.maxItems}`;
      return '';
    }
  }
}

/** Every field's problem (an empty object when the form can be sent). */
export function validate(fields: readonly Field[], values: FormValues): FormErrors {
  const errors: FormErrors = {};
  for (const f of fields) {
    const problem = checkField(f, values[f.name]);
    if (problem) errors[f.name] = problem;
  }
  return errors;
}

/**
 * The content of an `accept`: each value typed as the schema says (numbers, booleans, arrays of
 * strings in the choices' order); optional text, number and choice fields left empty are left
 * out. Call after validate() found nothing.
 */
export function buildContent(fields: readonly Field[], values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    switch (f.kind) {
      case 'text':
        if (typeof v === 'string' && v !== '') out[f.name] = f.format === 'date-time' ? new Date(v).toISOString() : v;
        break;
      case 'number':
        if (typeof v === 'string' && v.trim() !== '') out[f.name] = Number(v);
        break;
      case 'boolean':
        out[f.name] = v === true;
        break;
      case 'choice':
        if (typeof v === 'string' && v !== '') out[f.name] = v;
        break;
      case 'multi': {
        const chosen = new Set(Array.isArray(v) ? v : []);
        out[f.name] = f.options.filter((o) => chosen.has(o.value)).map((o) => o.value);
        break;
      }
    }
  }
  return out;
}
