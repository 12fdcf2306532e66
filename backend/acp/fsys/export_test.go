package fsys

// SetFindBudget lowers how many entries one FindFiles looks at, until the test ends.
func SetFindBudget(t interface{ Cleanup(func()) }, n int) {
	old := findBudget
	findBudget = n
	t.Cleanup(func() { findBudget = old })
}
