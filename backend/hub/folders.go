package hub

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"agentdesk/backend/acp"
)

// Broad folders: a session there hands the agent far more than a project (FolderCheck.Broad).
const (
	BroadHome = "home" // the user's home folder itself
	BroadRoot = "root" // the file system's root
)

// FolderCheck is what CheckFolder found: the folder as a session would get it, and whether it
// is broad enough that the user should confirm it first.
type FolderCheck struct {
	Path  string `json:"path"`
	Broad string `json:"broad"` // BroadHome, BroadRoot or ""
}

// CheckFolder resolves dir as Start would (~ expanded, made absolute, an existing folder
// required: ErrNoFolder, *FolderError) and says whether it is broad.
func CheckFolder(dir string) (FolderCheck, error) {
	abs, err := checkFolder(dir)
	if err != nil {
		return FolderCheck{}, err
	}
	c := FolderCheck{Path: abs}
	home, _ := os.UserHomeDir()
	switch {
	case abs == string(filepath.Separator):
		c.Broad = BroadRoot
	case home != "" && abs == filepath.Clean(home):
		c.Broad = BroadHome
	}
	return c, nil
}

// checkFolder expands ~ and requires an existing folder (ErrNoFolder, *FolderError); it returns
// the absolute path.
func checkFolder(dir string) (string, error) {
	dir = strings.TrimSpace(dir)
	if dir == "" {
		return "", ErrNoFolder
	}
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, dir[1:])
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("folder %q: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		return "", &FolderError{Path: abs, Err: err}
	}
	return abs, nil
}

// checkPlace checks where a session of agentID runs and what it is given: its folder
// (checkFolder), its additional folders (checkDirs) and the MCP servers named (mcpFor). Start,
// ContinueSaved and Branch all check these before they launch.
func (h *Hub) checkPlace(agentID, cwd string, dirs, mcpNames []string) (string, []string, []acp.MCPServer, error) {
	dir, err := checkFolder(cwd)
	if err != nil {
		return "", nil, nil, err
	}
	extra, err := checkDirs(dir, dirs)
	if err != nil {
		return "", nil, nil, err
	}
	mcp, err := h.mcpFor(agentID, mcpNames)
	if err != nil {
		return "", nil, nil, err
	}
	return dir, extra, mcp, nil
}

// MaxDirs bounds a session's additional folders.
const MaxDirs = 32

// checkDirs resolves a session's additional folders as checkFolder does each, in order, leaving
// out repeats and cwd itself. A folder that does not exist, or whose path holds a newline (the
// store keeps one per line), fails the start, naming it.
func checkDirs(cwd string, dirs []string) ([]string, error) {
	if len(dirs) > MaxDirs {
		return nil, fmt.Errorf("a session can have at most %d additional folders, not %d", MaxDirs, len(dirs))
	}
	var out []string
	seen := map[string]bool{cwd: true}
	for _, d := range dirs {
		abs, err := checkFolder(d)
		if err != nil {
			return nil, fmt.Errorf("additional folder: %w", err)
		}
		if strings.ContainsAny(abs, "\n\r") {
			return nil, fmt.Errorf("additional folder %q: a folder whose name holds a line break cannot be added", abs)
		}
		if !seen[abs] {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	return out, nil
}
