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

// SetInstalled adds the installed agents to the catalog. Call it before the catalog is shared.
func (c *Catalog) SetInstalled(src InstalledAgents) { c.installed = src }

// openInstalled opens the installed agents of the default place (RegisterInstalled), or is nil.
var openInstalled func() InstalledAgents

// RegisterInstalled sets what OpenCatalog adds to every catalog it opens: backend/registry
// registers its default install folder when it is linked in (as database/sql drivers do), so
// every front end that opens the default catalog (the window, each command of the command
// line) lists the agents installed from the registry without this package importing it.
// open may return nil (no install folder).
func RegisterInstalled(open func() InstalledAgents) { openInstalled = open }
