package fsys

// WithoutOpenat2 makes every fs/* open walk name by name, as where the kernel has no openat2,
// until the test ends.
func WithoutOpenat2(t interface{ Cleanup(func()) }) {
	openat2Missing.Store(true)
	t.Cleanup(func() { openat2Missing.Store(false) })
}

// SetFindBudget lowers how many entries one FindFiles looks at, until the test ends.
func SetFindBudget(t interface{ Cleanup(func()) }, n int) {
	old := findBudget
	findBudget = n
	t.Cleanup(func() { findBudget = old })
}
