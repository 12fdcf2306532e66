package main

import (
	"fmt"

	"agentdesk/backend/hub"
)

// HouseRules returns the house rules for an agent in a project folder (backend/hub's
// houserules.go), for the house rules editor. A folder that does not exist is an error naming it.
func (ags *Agents) HouseRules(agentID, folder string) (hub.HouseRules, error) {
	r, err := ags.hub.HouseRules(ags.ctx, agentID, folder)
	if err != nil {
		return r, fmt.Errorf("could not read the house rules: %w", err)
	}
	return r, nil
}

// SaveHouseRules saves the house rules for an agent in a project folder (blank text deletes
// them); they are sent from the next session opened there. Over the bound, not text, or without a
// history database it is refused with what to do.
func (ags *Agents) SaveHouseRules(agentID, folder, text string) (hub.HouseRules, error) {
	r, err := ags.hub.SetHouseRules(ags.ctx, agentID, folder, text)
	if err != nil {
		return r, fmt.Errorf("could not save the house rules: %w", err)
	}
	return r, nil
}
