package registry

import (
	"os"
	"sort"
	"strings"

	"agentdesk/backend/agents"
)

// AgentPrefix starts the catalog id of an installed registry agent ("registry:goose"), so it
// never takes the id of a preset or custom agent.
const AgentPrefix = "registry:"

// CatalogSource is the installed agents as the agent catalog lists them (agents.InstalledAgents).
type CatalogSource struct{ Installer *Installer }

// Agents lists the current install of each installed agent, started directly from its install
// folder. An npx install needs node on the PATH its bin's #! line searches.
func (s CatalogSource) Agents(base []string) []agents.Agent {
	list, _ := s.Installer.Installed()
	var out []agents.Agent
	for _, st := range list {
		in := st.Current
		a := agents.Agent{ID: AgentPrefix + in.ID, Name: in.Name, Version: in.Version, Command: in.Command(),
			Args: in.Args, Available: true, Env: base}
		if len(in.Env) > 0 {
			env := base
			if env == nil {
				env = os.Environ()
			}
			vars := make([]string, 0, len(in.Env))
			for k, v := range in.Env {
				vars = append(vars, k+"="+v)
			}
			sort.Strings(vars)
			a.Env = agents.WithEnv(env, vars)
		}
		if in.Kind == "npx" {
			env := a.Env
			if env == nil {
				env = os.Environ()
			}
			if _, err := lookPath("node", env); err != nil {
				a.Available, a.Reason = false, "needs Node.js: node is not on PATH"
			}
		}
		out = append(out, a)
	}
	return out
}

// Check verifies the installed agent's command before it starts (Installer.Current).
func (s CatalogSource) Check(id string) error {
	reg, ok := strings.CutPrefix(id, AgentPrefix)
	if !ok {
		return nil
	}
	_, err := s.Installer.Current(reg)
	return err
}
