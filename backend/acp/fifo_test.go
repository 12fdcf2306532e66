//go:build unix

package acp_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"agentdesk/backend/acp/acptest"
	"agentdesk/backend/acp/jsonrpc"
	"agentdesk/backend/acp/schema"
)

// TestThousandsOfFIFOReadsAreAllAnswered: an agent with thousands of reads of a FIFO in flight
// (11,000 in waves of 2,000, each wave past the 16 workers and 1,024 waiting requests) gets every
// one answered (refused, or told agentdesk is busy), and agentdesk lives on: no OS thread waits
// on a FIFO. A wave stays under jsonrpc.MaxQueuedMessages because the scripted agent speaks
// through a jsonrpc.Conn too: pipelining all 11,000 at once could pass its own outbound bound
// whenever agentdesk's reader is slow to be scheduled, and end the agent instead of testing us.
func TestThousandsOfFIFOReadsAreAllAnswered(t *testing.T) {
	const reads, wave = 11000, 2000
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	type tally struct{ refused, busy, other int }
	got := make(chan tally, 1)
	s := startScripted(t, dir, newEvents(), func(c *jsonrpc.Conn, req *jsonrpc.Request) {
		defer req.Reply(schema.PromptResult{StopReason: schema.StopEndTurn}, nil)
		var n tally
		for sent := 0; sent < reads; sent += wave {
			pending := make([]*jsonrpc.Pending, 0, wave)
			for range min(wave, reads-sent) {
				p, err := c.Start(schema.MethodReadTextFile, schema.ReadTextFileParams{SessionID: "p1", Path: fifo})
				if err != nil {
					break
				}
				pending = append(pending, p)
			}
			n.other += min(wave, reads-sent) - len(pending)
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			for _, p := range pending {
				err := p.Wait(ctx, nil)
				switch {
				case acptest.RPCCode(err) == schema.CodeInvalidParams && strings.Contains(err.Error(), "FIFO") && strings.Contains(err.Error(), fifo):
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
			cancel()
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
