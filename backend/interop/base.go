package interop

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
)

// base is what both model servers are made of: an httptest server on 127.0.0.1, the script,
// the journal of what it saw, and the ids of what it answers.
type base struct {
	journal
	srv    *httptest.Server
	script Script
	ids    atomic.Int64
}

// start serves h on 127.0.0.1 and returns the server's URL.
func (b *base) start(h http.HandlerFunc) string {
	b.srv = httptest.NewServer(h)
	return b.srv.URL
}

// Close stops the server, ending any reply still open.
func (b *base) Close() {
	b.srv.CloseClientConnections()
	b.srv.Close()
}

// id is a new id for something the server answers: prefix_0001, prefix_0002…
func (b *base) id(prefix string) string { return fmt.Sprintf("%s_%04d", prefix, b.ids.Add(1)) }

// read reads r's body (8 MiB at most) and what the journal keeps of it.
func (b *base) read(r *http.Request) ([]byte, Seen) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	return body, Seen{Method: r.Method, Path: r.URL.Path, Body: cut(body)}
}

// notFound keeps seen and answers 404 with errJSON, the API's error object, naming the request.
func (b *base) notFound(w http.ResponseWriter, seen Seen, errJSON string) {
	b.add(seen)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintf(w, errJSON, "the scripted server has no "+seen.Method+" "+seen.Path)
}

// decodeAsk decodes body as a request R of the API, keeps seen with the Ask that toAsk makes of
// it and returns both. A body that is not JSON is kept too and answered 400 with badJSON (the
// API's error object); ok is then false and the caller answers nothing more.
func decodeAsk[R any](b *base, w http.ResponseWriter, body []byte, seen Seen, badJSON string, toAsk func(R) Ask) (req R, ask Ask, ok bool) {
	if err := json.Unmarshal(body, &req); err != nil {
		b.add(seen)
		http.Error(w, badJSON, http.StatusBadRequest)
		return req, Ask{}, false
	}
	seen.Ask = toAsk(req)
	b.add(seen)
	return req, seen.Ask, true
}
