package cli

import (
	"bufio"
	"errors"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/peterh/liner"
)

// chatInput is chat's one reader of its input: the prompt and every question (permissions, the
// agent's questions) are read through it, one at a time, so that a question asked during a turn
// and the prompt never read the same keys.
type chatInput interface {
	lineReader
	// prompt reads the next message: io.EOF at Ctrl-D or the end of the input, errInterrupted
	// at Ctrl-C.
	prompt() (string, error)
	// close gives the terminal back as it was.
	close()
}

// onTerminal reports whether chat talks to a person at a terminal: stdin and stdout are the
// process's own, both terminals, and TERM is one that can edit a line. The line editor reads fd
// 0 and writes fd 1 itself, so a Stdio of anything else reads plain lines.
func onTerminal(stdio Stdio) bool {
	in, ok1 := stdio.In.(*os.File)
	out, ok2 := rawStream(stdio.Out).(*os.File)
	return ok1 && ok2 && in.Fd() == 0 && out.Fd() == 1 && isTerminal(in) && isTerminal(out) && liner.TerminalSupported()
}

// lineEditor reads the terminal through liner: history, Tab completion of slash commands, and
// Ctrl-C read as a key while a line is edited (the kernel's SIGINT is off then; between lines it
// is on, and a turn gets it as a signal).
type lineEditor struct {
	mu         sync.Mutex // one prompt or question at a time
	l          *liner.State
	mask       func(string) string // a question shows what the transcript would: secrets masked
	flush      func()              // puts all the transcript on the screen before a prompt
	interrupts chan<- struct{}     // told of a Ctrl-C at a question (never blocks)
}

// newLineEditor takes over the terminal; commands lists the slash commands Tab completes, as
// of the moment Tab is pressed.
func newLineEditor(commands func() []string, mask func(string) string, flush func(), interrupts chan<- struct{}) *lineEditor {
	l := liner.NewLiner()
	l.SetCtrlCAborts(true)
	l.SetCompleter(func(line string) []string { return completeSlash(line, commands()) })
	return &lineEditor{l: l, mask: mask, flush: flush, interrupts: interrupts}
}

func (e *lineEditor) prompt() (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.flush()
	line, err := keysNotSignals(func() (string, error) { return e.l.Prompt(chatPrompt) })
	if errors.Is(err, liner.ErrPromptAborted) {
		return "", errInterrupted
	}
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(line) != "" {
		e.l.AppendHistory(line)
	}
	return line, nil
}

func (e *lineEditor) readLine(question string) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.flush()
	line, err := keysNotSignals(func() (string, error) { return e.l.Prompt(printable(safeText(e.mask(question)))) })
	if errors.Is(err, liner.ErrPromptAborted) {
		select {
		case e.interrupts <- struct{}{}:
		default:
		}
		return "", errInterrupted
	}
	return line, err
}

func (e *lineEditor) close() { _ = e.l.Close() }

// chatPrompt is what chat's prompt shows.
const chatPrompt = "> "

// printable replaces the control characters liner refuses in a prompt (a title may hold a tab
// or a newline) with spaces.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.C, r) {
			return ' '
		}
		return r
	}, s)
}

// completeSlash is what Tab offers for line: the slash commands (without their slash) that
// start with what was typed, for a line that is a slash and a word, sorted.
func completeSlash(line string, commands []string) []string {
	word, ok := strings.CutPrefix(line, "/")
	if !ok || strings.ContainsAny(word, " \t") {
		return nil
	}
	var out []string
	for _, c := range commands {
		if strings.HasPrefix(c, word) && !slices.Contains(out, "/"+c) {
			out = append(out, "/"+c)
		}
	}
	sort.Strings(out)
	return out
}

// plainLines reads lines from stdin that is not a terminal (or that the line editor cannot
// drive): each line is a message, or the answer to the question being asked.
type plainLines struct {
	mu         sync.Mutex // one prompt or question at a time
	in         *bufio.Reader
	out        *printer
	flush      func() // puts all the transcript on the screen before a prompt
	showPrompt bool   // stdin is a terminal (stdout is not): show where to type
}

func (p *plainLines) prompt() (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.showPrompt {
		p.out.printf("%s", chatPrompt)
	}
	p.flush()
	line, err := p.in.ReadString('\n')
	if err != nil && line == "" {
		return "", io.EOF
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func (p *plainLines) readLine(question string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.out.printf("%s", question)
	p.flush()
	line, err := p.in.ReadString('\n')
	if !p.showPrompt && err == nil {
		p.out.printf("%s", line) // the answer, as a terminal would have echoed it
	}
	return line, err
}

func (p *plainLines) close() {}
