package agents

// InstalledAgents are agents installed outside agents.json: those installed from the ACP
// registry (backend/registry), which the catalog lists after the built-in ones.
type InstalledAgents interface {
	// Agents lists them ready to start on the base environment (nil: this process's own).
	Agents(base []string) []Agent
	// Check says why the agent with id must not start (its installed command changed), or
	// nil; it is nil for ids it does not own. Find calls it before every start.
	Check(id string) error
}

// SetInstalled adds the installed agents to the catalog (backend/hub.Open adds the registry's).
// Call it before the catalog is shared.
func (c *Catalog) SetInstalled(src InstalledAgents) { c.installed = src }
