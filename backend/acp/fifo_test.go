//go:build unix

package acp_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// TestThousandsOfFIFOReadsAreAllAnswered: an agent with 11,000 reads of a FIFO in flight gets
// every one answered (refused, or told agentdesk is busy), and agentdesk lives on: no OS thread
// waits on a FIFO.
func TestThousandsOfFIFOReadsAreAllAnswered(t *testing.T) {
	const reads = 11000
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	type tally struct{ refused, busy, other int }
	got := make(chan tally, 1)
	s := startScripted(t, dir, newEvents(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
		pending := make([]*jsonrpc.Pending, 0, reads)
		for range reads {
			p, err := c.Start(schema.MethodReadTextFile, schema.ReadTextFileParams{SessionID: "p1", Path: fifo})
			if err != nil {
				break
			}
			pending = append(pending, p)
		}
		var n tally
		n.other = reads - len(pending)
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		for _, p := range pending {
			err := p.Wait(ctx, nil)
			switch {
			case rpcCode(err) == schema.CodeInvalidParams && strings.Contains(err.Error(), "FIFO") && strings.Contains(err.Error(), fifo):
				n.refused++
			case strings.Contains(fmt.Sprint(err), "agentdesk is busy"):
				n.busy++
			default:
				n.other++
				if n.other == 1 {
					t.Errorf("a read answered %v", err)
				}
			}
		}
		got <- n
	})
	if _, err := s.Prompt("read the pipe"); err != nil {
		t.Fatal(err)
	}
	n := <-got
	if n.other != 0 || n.refused == 0 || n.refused+n.busy != reads {
		t.Fatalf("%d refused as a FIFO, %d busy, %d otherwise or never answered; want all %d answered", n.refused, n.busy, n.other, reads)
	}
}
