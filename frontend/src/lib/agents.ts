// Types of the agent editor's and the login prompt's bindings (the Agents and Logins services:
// app_agents.go, app_logins.go), and the pure helpers their stores use. The types are Wails'
// generated models, re-exported so components import from one place. Secret values travel one
// way only, from the page to the backend: what comes back says whether a secret is set
// (`isSet`), never its value.
import type { main } from '../../wailsjs/go/models';

/**
 * One variable of a custom agent. A secret's `value` is always '' when it comes from Go; `isSet`
 * says it has a stored value, which it keeps when saved with value ''.
 */
export type AgentEnvVar = main.AgentEnvVar;

/** A custom agent in the editor (`id` '' for a new one). `args` is one line, split like a shell would. */
export type AgentSettings = main.AgentSettings;

/** What ImportZedAgents did: the agents added or replaced, and the entries skipped with their reason. */
export type ImportResult = main.ImportResult;

/** A value an env_var login asks for; `isSet`: one is stored already. */
export type AuthVarInfo = main.AuthVarInfo;

/**
 * One login method of the agent. `type` is 'agent', 'env_var' or 'terminal' (or a type of the
 * agent's own that agentdesk does not know); `command` (terminal): the exact command line to run.
 */
export type AuthMethodInfo = main.AuthMethodInfo;

/** The login methods of a session whose agent needs a login (`methods` empty otherwise). */
export type AuthPrompt = main.AuthPrompt;

export function emptyAgent(): AgentSettings {
  return { id: '', name: '', command: '', args: '', env: [], folder: '', version: '' };
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

/**
 * An MCP server in the editor (ListMCPServers, SaveMCPServer). `was` is the name it was saved
 * under ('' for a new one); `transport` is 'stdio' (command, args, env) or 'http' / 'sse' (url,
 * headers); `agents` empty means every agent. Secrets follow AgentEnvVar's rule.
 */
export type MCPSettings = main.MCPSettings;

export function emptyMCP(): MCPSettings {
  return { name: '', was: '', transport: 'stdio', command: '', args: '', env: [], url: '', headers: [], agents: [], disabled: false };
}
