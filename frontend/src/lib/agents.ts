// Types of the agent editor's and the login prompt's bindings (agents_app.go, auth_app.go), and
// the pure helpers their stores use. Secret values travel one way only, from the page to the
// backend: what comes back says whether a secret is set (`isSet`), never its value.

/** One variable of a custom agent. A secret's `value` is always '' when it comes from Go. */
export interface AgentEnvVar {
  name: string;
  value: string;
  secret: boolean;
  /** A secret has a stored value; saved with value '', it keeps it. */
  isSet: boolean;
}

/** A custom agent in the editor. `args` is one line, split like a shell would. */
export interface AgentSettings {
  id: string;
  name: string;
  command: string;
  args: string;
  env: AgentEnvVar[];
  folder: string;
}

export interface ImportResult {
  added: string[];
  skipped: string[];
}

export interface AuthVarInfo {
  name: string;
  label?: string;
  optional: boolean;
  secret: boolean;
  isSet: boolean;
}

export type AuthMethodType = 'agent' | 'env_var' | 'terminal';

export interface AuthMethodInfo {
  id: string;
  name: string;
  description?: string;
  type: AuthMethodType | string;
  vars?: AuthVarInfo[];
  link?: string;
  /** terminal: the exact command line to run. */
  command?: string;
}

/** The login methods of a session whose agent needs a login (`methods` empty otherwise). */
export interface AuthPrompt {
  sessionId: string;
  agentId: string;
  agentName: string;
  message: string;
  methods: AuthMethodInfo[];
  canRunTerminal: boolean;
}

export function emptyAgent(): AgentSettings {
  return { id: '', name: '', command: '', args: '', env: [], folder: '' };
}

/** A fresh variable row for the editor. */
export function emptyVar(secret = false): AgentEnvVar {
  return { name: '', value: '', secret, isSet: false };
}

/** The values an env_var login form sends: only the fields the user filled in. */
export function filledValues(values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value !== '') out[name] = value;
  return out;
}
