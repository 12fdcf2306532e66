package notify

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Icon returns the notification icon for the app called name: a file:// URI of its installed
// icon (the .deb puts it in hicolor; a URI works even where the theme cache was not refreshed),
// else fallback, a stock icon-theme name such as "dialog-information". It looks in
// $XDG_DATA_HOME and $XDG_DATA_DIRS (defaults: ~/.local/share, /usr/local/share:/usr/share),
// largest size first.
func Icon(name, fallback string) string {
	for _, dir := range dataDirs() {
		for _, size := range []string{"scalable", "1024x1024", "512x512", "256x256", "128x128", "64x64", "48x48"} {
			for _, ext := range []string{".svg", ".png"} {
				p := filepath.Join(dir, "icons", "hicolor", size, "apps", name+ext)
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
					return (&url.URL{Scheme: "file", Path: p}).String()
				}
			}
		}
	}
	return fallback
}

// dataDirs are the XDG data directories, most specific first.
func dataDirs() []string {
	var dirs []string
	if home := os.Getenv("XDG_DATA_HOME"); home != "" {
		dirs = append(dirs, home)
	} else if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "share"))
	}
	rest := os.Getenv("XDG_DATA_DIRS")
	if rest == "" {
		rest = "/usr/local/share:/usr/share"
	}
	for _, d := range strings.Split(rest, ":") {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}
