package main

import (
	"fmt"
	"strings"

	"agentdesk/scripts/budget"
)

// budgetTable is the performance budget (scripts/budget, the one place a goal is written): each
// figure, what it measures, its goal, the command that prints it and its latest value.
func budgetTable(string) (string, error) {
	var b strings.Builder
	b.WriteString("| figure | what | goal | latest | measured with |\n|---|---|---|---|---|\n")
	for _, f := range budget.Figures {
		latest := f.Latest
		if latest == "" {
			latest = "not measured yet"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", f.Name, f.What, f.GoalText(), latest, f.Command)
	}
	fmt.Fprintf(&b, "\nLatest values: %s.\n", budget.Machine)
	return b.String(), nil
}
