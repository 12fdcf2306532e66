package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"agentdesk/backend/supervise/supervisor"
)

// SupervisorEnv carries the path of the supervisor binary Supervisor built to the children of
// the test binary that built it (a test's child acting as agentdesk builds none of its own).
const SupervisorEnv = "PROCTEST_SUPERVISOR"

// Supervisor builds the agentdesk-supervisor binary (cmd/agentdesk-supervisor) into a temp
// folder with `go build` (which `go test` puts on PATH; the build cache makes it quick), as
// scripts/build.sh builds it next to agentdesk, and returns its path and a function that
// removes it. In a child of a test binary that built one (SupervisorEnv is set) it returns that
// one, and remove does nothing. Called by the TestMain of tests that start real agents, before
// supervise.EnableSupervisor.
func Supervisor() (path string, remove func(), err error) {
	if path := os.Getenv(SupervisorEnv); path != "" {
		return path, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "agentdesk-supervisor-")
	if err != nil {
		return "", nil, fmt.Errorf("build %s: %w", supervisor.Name, err)
	}
	path = filepath.Join(dir, supervisor.Name)
	build := exec.Command("go", "build", "-o", path, "agentdesk/cmd/"+supervisor.Name)
	if out, err := build.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("build %s: %v\n%s", supervisor.Name, err, out)
	}
	os.Setenv(SupervisorEnv, path)
	return path, func() { os.RemoveAll(dir) }, nil
}
