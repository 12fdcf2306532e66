// Form elicitations (ACP elicitation/create, mode "form"): the agent's restricted JSON Schema
// turned into a list of fields the card renders, their defaults, the checks run before submit,
// and the typed content sent back with `accept`. Pure: no DOM, no Svelte.
//
// The schema is the agent's, so untrusted: parseSchema never throws, bounds what it keeps
// (fields, options, text), and names what it cannot render instead of guessing. Form values are
// kept as the inputs hold them (numbers as typed text, so nothing typed is lost to a parse);
// buildContent turns them into the JSON the schema asks for (numbers as numbers, booleans as
// booleans, arrays of strings) and leaves out optional fields left empty.

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

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function text(v: unknown): string | undefined {
  if (typeof v !== 'string' || !v.trim()) return undefined;
  return v.length > MAX_TEXT ? v.slice(0, MAX_TEXT) + '…' : v;
}

function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The choices of an enum ([values] with optional enumNames) or a oneOf/anyOf of {const, title}. */
function choices(p: Obj): Choice[] | null {
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return p.enum.map((v, i) => ({ value: String(v), label: text(names[i]) ?? String(v) }));
  }
  const list = Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : null;
  if (!list) return null;
  const out: Choice[] = [];
  for (const c of list) {
    if (!isObj(c) || typeof c.const !== 'string') return null;
    out.push({ value: c.const, label: text(c.title) ?? c.const });
  }
  return out;
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
    return undefined; // the agent checks its own pattern; an unreadable one is not enforced here
  }
}

/** One property as a field, or what is wrong with it. */
function field(name: string, p: unknown, required: boolean): Field | string {
  if (!isObj(p)) return `field "${name}" is not an object`;
  const base = { name, label: text(p.title) ?? name, description: text(p.description), required };
  const options = choices(p);
  if (options && options.length > MAX_OPTIONS) return `field "${name}" has more than ${MAX_OPTIONS} choices`;
  switch (p.type) {
    case 'string': {
      if (options) {
        if (options.length === 0) return `field "${name}" has no choices`;
        const def = typeof p.default === 'string' && options.some((o) => o.value === p.default) ? p.default : undefined;
        return { ...base, kind: 'choice', options, widget: options.length <= RADIO_MAX ? 'radio' : 'select', default: def };
      }
      const format = typeof p.format === 'string' ? p.format : undefined;
      const secret = format === 'password' || p.writeOnly === true;
      const pattern = typeof p.pattern === 'string' ? p.pattern : undefined;
      return {
        ...base,
        kind: 'text',
        input: secret ? 'password' : (INPUTS[format ?? ''] ?? 'text'),
        format,
        secret,
        minLength: count(p.minLength),
        maxLength: count(p.maxLength),
        pattern,
        regex: pattern === undefined ? undefined : compile(pattern),
        default: typeof p.default === 'string' ? p.default : undefined,
      };
    }
    case 'number':
    case 'integer':
      return { ...base, kind: 'number', integer: p.type === 'integer', minimum: num(p.minimum), maximum: num(p.maximum), default: num(p.default) };
    case 'boolean':
      return { ...base, kind: 'boolean', default: typeof p.default === 'boolean' ? p.default : undefined };
    case 'array': {
      const items = isObj(p.items) ? choices(p.items) : null;
      if (!items || items.length === 0) return `field "${name}" is a list without choices`;
      if (items.length > MAX_OPTIONS) return `field "${name}" has more than ${MAX_OPTIONS} choices`;
      const known = new Set(items.map((o) => o.value));
      const def = Array.isArray(p.default) ? p.default.filter((v): v is string => typeof v === 'string' && known.has(v)) : undefined;
      return { ...base, kind: 'multi', options: items, minItems: count(p.minItems), maxItems: count(p.maxItems), default: def };
    }
    default:
      return `field "${name}" has a type this window cannot show (${JSON.stringify(p.type ?? null).slice(0, 40)})`;
  }
}

/**
 * The fields of a form elicitation's schema, in the agent's order, or an error naming what
 * cannot be rendered. Never throws.
 */
export function parseSchema(schema: unknown): { fields: Field[] } | { error: string } {
  if (!isObj(schema)) return { error: 'the form has no schema' };
  if (schema.type !== undefined && schema.type !== 'object') return { error: 'the form is not an object' };
  const props = schema.properties ?? {};
  if (!isObj(props)) return { error: 'the form has no fields' };
  const names = Object.keys(props);
  if (names.length > MAX_FIELDS) return { error: `the form has more than ${MAX_FIELDS} fields` };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const fields: Field[] = [];
  for (const name of names) {
    const f = field(name, props[name], required.has(name));
    if (typeof f === 'string') return { error: f };
    fields.push(f);
  }
  return { fields };
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
