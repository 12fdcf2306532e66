package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
)

// FileVersion is the version of the rules file format Export writes.
const FileVersion = 1

// File is the JSON file rules are exported to and imported from.
type File struct {
	Version int    `json:"version"`
	Rules   []Rule `json:"rules"`
}

// Export returns rs as a rules file (indented JSON).
func Export(rs []Rule) []byte {
	if rs == nil {
		rs = []Rule{}
	}
	b, _ := json.MarshalIndent(File{Version: FileVersion, Rules: rs}, "", "  ")
	return append(b, '\n')
}

// Import reads a rules file. Every rule must be valid (Rule.Validate, and a project folder
// absolute); the first that is not fails the whole file, named by its place in it. Rules
// without an ID keep none: the caller gives them one.
func Import(data []byte) ([]Rule, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("not a rules file: invalid JSON at byte %d: %w", syn.Offset, err)
		}
		return nil, fmt.Errorf("not a rules file: %w", err)
	}
	if f.Version != FileVersion {
		return nil, fmt.Errorf("rules file version %d is not one this agentdesk reads (%d)", f.Version, FileVersion)
	}
	for i, r := range f.Rules {
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("rule %d of the file: %w", i+1, err)
		}
	}
	return f.Rules, nil
}

// checkFolder says what is wrong with a rule's project folder.
func checkFolder(dir string) error {
	if dir != "" && !filepath.IsAbs(dir) {
		return fmt.Errorf("the project folder %q must be an absolute path", dir)
	}
	return nil
}
