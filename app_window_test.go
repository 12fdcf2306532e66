package main

import (
	"context"
	"os"
	"testing"
)

// fakeGeometry is a window of a given size and place.
type fakeGeometry struct {
	w, h, x, y int
	maximised  bool
	movedTo    []int
}

var _ windowGeometry = (*fakeGeometry)(nil)

func (f *fakeGeometry) Size(context.Context) (int, int)     { return f.w, f.h }
func (f *fakeGeometry) Position(context.Context) (int, int) { return f.x, f.y }
func (f *fakeGeometry) IsMaximised(context.Context) bool    { return f.maximised }
func (f *fakeGeometry) SetPosition(_ context.Context, x, y int) {
	f.movedTo = append(f.movedTo, x, y)
}

// TestWindowRemembersItsSizeAndPlace: the size and place at close come back at the next start;
// a maximised window comes back maximised and keeps the size it had before; a damaged file, or
// one with sizes no window has, opens the window as on a first run.
func TestWindowRemembersItsSizeAndPlace(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx := context.Background()
	def := windowState{Width: defaultWidth, Height: defaultHeight}
	if st := loadWindowState(); st != def {
		t.Fatalf("first run: %+v", st)
	}
	a := &App{core: &core{}, window: loadWindowState(), geometry: &fakeGeometry{w: 1000, h: 700, x: 40, y: 30}}
	if a.beforeClose(ctx) {
		t.Fatal("beforeClose prevented the close")
	}
	st := loadWindowState()
	if st != (windowState{Width: 1000, Height: 700, X: 40, Y: 30, Placed: true}) || startState(st) != 0 {
		t.Fatalf("after a close at 1000×700+40+30: %+v", st)
	}
	moved := &fakeGeometry{}
	next := &App{core: &core{}, window: st, geometry: moved}
	next.placeWindow(ctx)
	next.placeWindow(ctx) // a reload of the page does not move it again
	if len(moved.movedTo) != 2 || moved.movedTo[0] != 40 || moved.movedTo[1] != 30 {
		t.Fatalf("placed at %v, want once at 40,30", moved.movedTo)
	}

	next.geometry = &fakeGeometry{w: 1920, h: 1080, maximised: true}
	next.beforeClose(ctx)
	if st := loadWindowState(); !st.Maximised || st.Width != 1000 || st.Height != 700 || startState(st) == 0 {
		t.Fatalf("after a close maximised: %+v", st)
	}

	path, err := windowStatePath()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"{", `{"width":10,"height":10}`, `{"width":999999,"height":700}`} {
		if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if st := loadWindowState(); st != def {
			t.Errorf("window.json %s: %+v, want the defaults", bad, st)
		}
	}
}
