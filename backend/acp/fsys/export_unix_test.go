//go:build unix

package fsys

// WithoutOpenat2 makes every fs/* open walk name by name, as where the kernel has no openat2,
// until the test ends.
func WithoutOpenat2(t interface{ Cleanup(func()) }) {
	openat2Missing.Store(true)
	t.Cleanup(func() { openat2Missing.Store(false) })
}
