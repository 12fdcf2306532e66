package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"agentdesk/backend/acp"
)

// House rules are the person's standing instructions for one agent in one project folder, kept in
// the history database and sent as the client system prompt (ACP systemPrompt, append mode) when a
// session of that agent opens in that folder: started, continued, reopened or branched, from the
// window or the command line alike (launch reads them). An agent that does not take a system
// prompt is not sent them; its transcript says so (acp's session_systemprompt.go).

// ErrNoHouseRulesStore says house rules cannot be kept: there is no usable history database.
var ErrNoHouseRulesStore = errors.New("house rules are kept in the history database, which is unavailable")

// HouseRules is what the window's house rules editor shows for an agent in a folder.
type HouseRules struct {
	AgentID string `json:"agentId"`
	Folder  string `json:"folder"` // the folder as sessions there are keyed: absolute, cleaned
	Text    string `json:"text"`   // "" none
	Saved   string `json:"saved"`  // RFC 3339, "" never
	Max     int    `json:"max"`    // the most bytes the text may hold (acp.MaxSystemPrompt)
}

// HouseRules returns the house rules for agentID in folder (a folder that does not exist is an
// error naming it, as for a start). Without a store there are none.
func (h *Hub) HouseRules(ctx context.Context, agentID, folder string) (HouseRules, error) {
	dir, err := checkFolder(folder)
	if err != nil {
		return HouseRules{}, err
	}
	out := HouseRules{AgentID: agentID, Folder: dir, Max: acp.MaxSystemPrompt}
	if h.store == nil {
		return out, nil
	}
	text, at, err := h.store.HouseRules(ctx, agentID, dir)
	if err != nil {
		return HouseRules{}, err
	}
	out.Text = text
	if !at.IsZero() {
		out.Saved = at.Format(time.RFC3339)
	}
	return out, nil
}

// SetHouseRules saves text as the house rules for agentID in folder, from the next session that
// opens there on; blank text deletes them. Text is refused when it is over acp.MaxSystemPrompt
// bytes or not UTF-8; line ends are kept as \n. It blocks until the store has committed.
func (h *Hub) SetHouseRules(ctx context.Context, agentID, folder, text string) (HouseRules, error) {
	if strings.TrimSpace(agentID) == "" {
		return HouseRules{}, errors.New("house rules need an agent")
	}
	dir, err := checkFolder(folder)
	if err != nil {
		return HouseRules{}, err
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if strings.TrimSpace(text) == "" {
		text = ""
	}
	switch {
	case !utf8.ValidString(text):
		return HouseRules{}, errors.New("house rules must be text (UTF-8)")
	case len(text) > acp.MaxSystemPrompt:
		return HouseRules{}, fmt.Errorf("house rules can hold at most %d KiB; these are %d KiB: shorten them",
			acp.MaxSystemPrompt>>10, (len(text)+1023)>>10)
	case h.store == nil:
		return HouseRules{}, ErrNoHouseRulesStore
	}
	if err := h.store.SetHouseRules(ctx, agentID, dir, text); err != nil {
		return HouseRules{}, err
	}
	return h.HouseRules(ctx, agentID, dir)
}

// houseRulesFor is the system prompt a session of agentID opening in dir (checked) is given: its
// house rules, or "" (none, no store, or a store that cannot be read: logged, the start goes on).
func (h *Hub) houseRulesFor(agentID, dir string) string {
	if h.store == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	text, _, err := h.store.HouseRules(ctx, agentID, dir)
	if err != nil {
		h.logf("house rules of %s in %s not read, the session starts without them: %v", agentID, dir, err)
		return ""
	}
	return text
}
