package acp_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/acp"
	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/attach"
	"agentdesk/backend/acp/fsys"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// capsAgent advertises caps and records the content blocks of every prompt it receives.
type capsAgent struct {
	caps    map[string]any
	prompts chan []json.RawMessage
}

func (a *capsAgent) HandleNotification(string, json.RawMessage) {}
func (a *capsAgent) HandleRequest(req *jsonrpc.Request) {
	switch req.Method {
	case schema.MethodInitialize:
		req.Reply(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{"promptCapabilities": a.caps}}, nil)
	case schema.MethodSessionNew:
		req.Reply(map[string]any{"sessionId": "p1"}, nil)
	case schema.MethodSessionPrompt:
		var p struct {
			Prompt []json.RawMessage `json:"prompt"`
		}
		_ = json.Unmarshal(req.Params, &p)
		a.prompts <- p.Prompt
		req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
	default:
		req.Reply(nil, &jsonrpc.Error{Code: schema.CodeMethodNotFound, Message: req.Method})
	}
}

func startCapsAgent(t *testing.T, cwd string, caps map[string]any) (*acp.Session, *events, *capsAgent) {
	t.Helper()
	a := &capsAgent{caps: caps, prompts: make(chan []json.RawMessage, 4)}
	ev := newEvents()
	s := acp.NewSession(acp.Config{ID: "s1", AgentName: "Fake agent", Cwd: cwd, Emitter: ev, Logf: t.Logf,
		Launch: func(context.Context) (acp.Transport, error) {
			return acptest.ServeHandler(func(*jsonrpc.Conn) jsonrpc.Handler { return a }), nil
		}})
	t.Cleanup(func() { s.Close() })
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, ev, a
}

func pngData(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// project is a session folder with a few files, and a file outside it.
func project(t *testing.T) (dir, outside string) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "project")
	outside = filepath.Join(root, "secret.txt")
	files := map[string]string{
		"notes.md":         "# Notes\nhello\n",
		"empty.txt":        "",
		"data.bin":         "\x00\x01\x02binary",
		"src/main.go":      "package main\n",
		"big.txt":          strings.Repeat("a", attach.MaxEmbedBytes+1),
		"exact.txt":        strings.Repeat("é", attach.MaxEmbedBytes/2),
		"../secret.txt":    "secret",
		"sub/dir/deep.txt": "deep",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must(t, os.Symlink(outside, filepath.Join(dir, "escape.txt")))
	must(t, os.Symlink(filepath.Join(dir, "notes.md"), filepath.Join(dir, "alias.md")))
	must(t, os.Symlink(root, filepath.Join(dir, "up")))
	return dir, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPromptAttachments: each attachment becomes the block the agent's capabilities allow, the
// user entry shows it, and a refused attachment sends nothing.
func TestPromptAttachments(t *testing.T) {
	dir, outside := project(t)
	img := pngData(t, 640, 480)
	none := map[string]any{}
	embed := map[string]any{"embeddedContext": true}
	images := map[string]any{"image": true}
	file := func(p string) attach.Attachment { return attach.Attachment{Kind: attach.KindFile, Path: p} }
	for _, tc := range []struct {
		name    string
		caps    map[string]any
		text    string
		atts    []attach.Attachment
		want    []string // a substring of each block sent, in order
		sent    []string // AttachmentInfo.Sent of each attachment
		wantErr string   // a substring of the error; nothing is sent
		why     attach.Reason
	}{
		{name: "link without embedded context", caps: none, text: "look", atts: []attach.Attachment{file("notes.md")},
			want: []string{`{"type":"text","text":"look"}`, `"type":"resource_link","uri":"file://` + dir + `/notes.md","name":"notes.md","mimeType":"text/`},
			sent: []string{attach.SentLink}},
		{name: "embedded small text", caps: embed, text: "look", atts: []attach.Attachment{file(filepath.Join(dir, "notes.md"))},
			want: []string{`"text":"look"`, `{"type":"resource","resource":{"uri":"file://` + dir + `/notes.md","text":"# Notes\nhello\n","mimeType":"text/`},
			sent: []string{attach.SentEmbedded}},
		{name: "large text is linked", caps: embed, atts: []attach.Attachment{file("big.txt")},
			want: []string{`"type":"resource_link","uri":"file://` + dir + `/big.txt","name":"big.txt","mimeType":"text/plain","size":262145`},
			sent: []string{attach.SentLink}},
		{name: "text of exactly the limit is embedded", caps: embed, atts: []attach.Attachment{file("exact.txt")},
			want: []string{`"type":"resource","resource":{"uri":"file://` + dir + `/exact.txt","text":"éé`}, sent: []string{attach.SentEmbedded}},
		{name: "binary is linked", caps: embed, atts: []attach.Attachment{file("data.bin")},
			want: []string{`"type":"resource_link","uri":"file://` + dir + `/data.bin","name":"data.bin","mimeType":"application/octet-stream","size":9`},
			sent: []string{attach.SentLink}},
		{name: "empty file is linked", caps: embed, atts: []attach.Attachment{file("empty.txt")},
			want: []string{`"type":"resource_link"`}, sent: []string{attach.SentLink}},
		{name: "link to a file inside", caps: embed, atts: []attach.Attachment{file("alias.md")},
			want: []string{`"uri":"file://` + dir + `/alias.md"`}, sent: []string{attach.SentEmbedded}},
		{name: "image", caps: images, text: "see", atts: []attach.Attachment{{Kind: attach.KindImage, Name: "shot.png", MimeType: "image/png", Data: img}},
			want: []string{`"text":"see"`, `{"type":"image","mimeType":"image/png","data":"` + img[:20]}, sent: []string{attach.SentImage}},
		{name: "file and image in order", caps: map[string]any{"image": true, "embeddedContext": true}, text: "both",
			atts: []attach.Attachment{file("src/main.go"), {Kind: attach.KindImage, MimeType: "image/png", Data: img}},
			want: []string{`"text":"both"`, `"type":"resource"`, `"type":"image"`}, sent: []string{attach.SentEmbedded, attach.SentImage}},

		{name: "outside by ..", caps: embed, atts: []attach.Attachment{file("../secret.txt")}, wantErr: "cannot attach secret.txt: " + outside + " is outside the session folder", why: attach.Outside},
		{name: "outside by absolute path", caps: embed, atts: []attach.Attachment{file(outside)}, wantErr: "is outside the session folder", why: attach.Outside},
		{name: "outside by a link", caps: embed, atts: []attach.Attachment{file("escape.txt")}, wantErr: "cannot attach escape.txt: " + dir + "/escape.txt is outside", why: attach.Outside},
		{name: "outside through a linked folder", caps: embed, atts: []attach.Attachment{file("up/secret.txt")}, wantErr: "is outside the session folder", why: attach.Outside},
		{name: "missing", caps: embed, atts: []attach.Attachment{file("gone.txt")}, wantErr: "cannot attach gone.txt: " + dir + "/gone.txt does not exist", why: attach.Missing},
		{name: "folder", caps: embed, atts: []attach.Attachment{file("src")}, wantErr: "cannot attach src: it is a folder", why: attach.IsFolder},
		{name: "no path", caps: embed, atts: []attach.Attachment{file(" ")}, wantErr: "no path given", why: attach.NoPath},
		{name: "image not accepted", caps: embed, atts: []attach.Attachment{file("notes.md"), {Kind: attach.KindImage, Name: "shot.png", MimeType: "image/png", Data: img}},
			wantErr: "cannot attach shot.png: Fake agent does not accept images", why: attach.ImagesRefused},
		{name: "image too large", caps: images, atts: []attach.Attachment{{Kind: attach.KindImage, MimeType: "image/png",
			Data: base64.StdEncoding.EncodeToString(make([]byte, attach.MaxImageBytes+1))}}, wantErr: "images up to 10 MiB can be attached", why: attach.TooLarge},
		{name: "image not base64", caps: images, atts: []attach.Attachment{{Kind: attach.KindImage, MimeType: "image/png", Data: "%%%"}}, wantErr: "not base64", why: attach.BadData},
		{name: "not an image type", caps: images, atts: []attach.Attachment{{Kind: attach.KindImage, MimeType: "text/plain", Data: img}}, wantErr: `"text/plain" is not an image type`, why: attach.NotImage},
		{name: "unknown kind", caps: images, atts: []attach.Attachment{{Kind: "audio", Name: "a.wav"}}, wantErr: `unknown attachment kind "audio"`, why: attach.UnknownKind},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ev, a := startCapsAgent(t, dir, tc.caps)
			_, err := s.PromptWith(tc.text, tc.atts)
			if tc.wantErr != "" {
				var ae *attach.Error
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.As(err, &ae) || ae.Reason != tc.why {
					t.Fatalf("error %#v, want an AttachError (%s) with %q", err, tc.why, tc.wantErr)
				}
				if s.State() != acp.StateIdle || len(s.Snapshot().Entries) != 0 {
					t.Fatalf("a refused prompt changed the session: %s, %d entries", s.State(), len(s.Snapshot().Entries))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			blocks := <-a.prompts
			if len(blocks) != len(tc.want) {
				t.Fatalf("sent %d blocks, want %d: %s", len(blocks), len(tc.want), blocks)
			}
			for i, w := range tc.want {
				if !strings.Contains(string(blocks[i]), w) {
					t.Errorf("block %d is %.300s\nwant it to contain %s", i, blocks[i], w)
				}
			}
			ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
			user := s.Snapshot().Entries[0]
			if user.Kind != acp.KindUser || len(user.Attachments) != len(tc.sent) {
				t.Fatalf("user entry %+v", user)
			}
			for i, want := range tc.sent {
				if got := user.Attachments[i]; got.Sent != want || got.Name == "" || got.Size <= 0 && got.Name != "empty.txt" {
					t.Errorf("attachment %d: %+v, want sent %s", i, got, want)
				}
			}
			snap := s.Snapshot()
			assertFoldEqualsSnapshot(t, ev.upTo(t, snap.Seq), snap)
		})
	}
}

// TestImageAttachmentInfo: an image attachment keeps its size and a small thumbnail, not its data.
func TestImageAttachmentInfo(t *testing.T) {
	dir, _ := project(t)
	s, ev, a := startCapsAgent(t, dir, map[string]any{"image": true})
	if _, err := s.PromptWith("", []attach.Attachment{{Kind: attach.KindImage, Name: "shot.png", MimeType: "image/png", Data: pngData(t, 640, 480)}}); err != nil {
		t.Fatal(err)
	}
	if blocks := <-a.prompts; len(blocks) != 1 || !strings.Contains(string(blocks[0]), `"type":"image"`) {
		t.Fatalf("a prompt with only an image sent %s", blocks)
	}
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	info := s.Snapshot().Entries[0].Attachments[0]
	if info.Kind != attach.KindImage || info.Name != "shot.png" || info.Width != 640 || info.Height != 480 || info.MimeType != "image/png" {
		t.Fatalf("image info %+v", info)
	}
	thumb, ok := strings.CutPrefix(info.Thumbnail, "data:image/png;base64,")
	raw, err := base64.StdEncoding.DecodeString(thumb)
	if !ok || err != nil {
		t.Fatalf("thumbnail %.60s", info.Thumbnail)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width != attach.ThumbSize || cfg.Height != attach.ThumbSize*480/640 {
		t.Fatalf("thumbnail is %dx%d (%v), want %dx%d", cfg.Width, cfg.Height, err, attach.ThumbSize, attach.ThumbSize*480/640)
	}
	if md := acp.EntryMarkdown(&s.Snapshot().Entries[0]); !strings.Contains(md, "- `shot.png` (image 640×480, ") {
		t.Fatalf("markdown:\n%s", md)
	}
}

// TestPromptCapabilitiesReachTheUI: the composer learns what the agent accepts from the controls.
func TestPromptCapabilitiesReachTheUI(t *testing.T) {
	s, ev, _ := startCapsAgent(t, t.TempDir(), map[string]any{"image": true})
	snap := s.Snapshot()
	pc := snap.Controls.PromptCapabilities
	if pc == nil || !pc.Image || pc.EmbeddedContext {
		t.Fatalf("prompt capabilities %+v", pc)
	}
	for _, e := range ev.upTo(t, snap.Seq) {
		if e.Kind == acp.EventInfo && e.Controls.PromptCapabilities != nil && e.Controls.PromptCapabilities.Image {
			return
		}
	}
	t.Fatal("no info event carries the prompt capabilities")
}

func TestFindFiles(t *testing.T) {
	dir, _ := project(t)
	for _, d := range []string{".git/objects", "node_modules/pkg", ".local/share", ".cargo/registry"} {
		must(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, d, "notes.md"), []byte("x"), 0o644))
	}
	must(t, os.WriteFile(filepath.Join(dir, "sub", "notes-old.md"), []byte("x"), 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, ".github", "workflows", "ci.yml"), []byte("x"), 0o644))
	f, err := fsys.NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths := func(files []fsys.FolderFile) string {
		var out []string
		for _, f := range files {
			out = append(out, f.Path)
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		query string
		limit int
		want  string
	}{
		// Shallow first; links out of the folder, folders and skipped folders are not listed.
		{"", 100, "alias.md big.txt data.bin empty.txt exact.txt notes.md src/main.go sub/notes-old.md .github/workflows/ci.yml sub/dir/deep.txt"},
		{"ci.yml", 10, ".github/workflows/ci.yml"}, // hidden folders other than tool homes are searched
		{"", 3, "alias.md big.txt data.bin"},
		// Exact name, then prefix, then substring of the name, then of the path, then in order.
		{"notes.md", 10, "notes.md sub/notes-old.md"},
		{"NOTES", 10, "notes.md sub/notes-old.md"},
		{"main", 10, "src/main.go"},
		{"src", 10, "src/main.go"},
		{"sdde", 10, "sub/dir/deep.txt"},
		{"t", 2, "big.txt data.bin"},
		{"zzz", 10, ""},
	} {
		if got := paths(f.FindFiles(tc.query, tc.limit)); got != tc.want {
			t.Errorf("FindFiles(%q, %d) = %q, want %q", tc.query, tc.limit, got, tc.want)
		}
	}
	if got := f.FindFiles("notes.md", 1); len(got) != 1 || got[0].Name != "notes.md" || got[0].Size != int64(len("# Notes\nhello\n")) {
		t.Fatalf("file info %+v", got)
	}
}

// TestDemoAcknowledgesAttachments: the Demo agent accepts images and embedded files and says
// what it received, so the whole path can be seen end to end.
func TestDemoAcknowledgesAttachments(t *testing.T) {
	dir, _ := project(t)
	s, ev := startDemoIn(t, 0, dir)
	if pc := s.Snapshot().Controls.PromptCapabilities; pc == nil || !pc.Image || !pc.EmbeddedContext {
		t.Fatalf("demo prompt capabilities %+v", pc)
	}
	_, err := s.PromptWith("what are these?", []attach.Attachment{
		{Kind: attach.KindFile, Path: "notes.md"},
		{Kind: attach.KindFile, Path: "big.txt"},
		{Kind: attach.KindImage, Name: "screenshot.png", MimeType: "image/png", Data: pngData(t, 640, 480)},
	})
	if err != nil {
		t.Fatal(err)
	}
	answerNext(t, s, ev, schema.AllowOnce)
	ev.waitFor(t, "turn_end", kind(acp.EventTurnEnd))
	want := "I see 3 attachments: notes.md (embedded, 14 B), big.txt (link, 262.1 kB), a PNG image (640×480)."
	for _, e := range s.Snapshot().Entries {
		if e.Kind == acp.KindAgent && e.Text == want {
			return
		}
	}
	t.Fatalf("no agent message says %q:\n%s", want, markdown(s.Snapshot().Entries))
}
