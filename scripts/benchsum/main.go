// Command benchsum prints the performance budget (scripts/budget) with the values a bench run
// printed: `go run ./scripts/benchsum FILE...` reads the output of the Go benchmarks and
// e2e/perf.mjs (`name: value unit` lines and Go benchmark lines) and writes one row per figure,
// in the budget's order: the goal, this run's value (the median when it was printed more than
// once, as with -count=3) and whether it meets the goal. A figure the run did not print reads
// "not run". `make bench` runs it last. It fails only when a file cannot be read.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"agentdesk/scripts/budget"
)

func main() {
	values := map[string][]float64{}
	for _, path := range os.Args[1:] {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchsum: %v\n", err)
			os.Exit(1)
		}
		collect(f, values)
		f.Close()
	}
	write(os.Stdout, values)
}

var (
	// figureLine is a `name: value unit` line (a ratio may end in x: "2.09x").
	figureLine = regexp.MustCompile(`^([a-z][a-z0-9_]*): (-?[0-9.]+(?:e[+-]?[0-9]+)?)x?(?:\s|$)`)
	// benchLine is a Go benchmark result: its name (the -N of GOMAXPROCS dropped), runs, metrics.
	benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)
)

// collect adds every figure r prints to values, by budget name.
func collect(r io.Reader, values map[string][]float64) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := figureLine.FindStringSubmatch(line); m != nil {
			if v, err := strconv.ParseFloat(m[2], 64); err == nil {
				values[m[1]] = append(values[m[1]], v)
			}
			continue
		}
		if m := benchLine.FindStringSubmatch(line); m != nil {
			fields := strings.Fields(m[2])
			for i := 0; i+1 < len(fields); i += 2 {
				if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
					name := m[1] + " " + fields[i+1]
					values[name] = append(values[name], v)
				}
			}
		}
	}
}

// write prints the budget as a Markdown table with this run's values.
func write(w io.Writer, values map[string][]float64) {
	fmt.Fprintln(w, "| figure | goal | this run | |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, f := range budget.Figures {
		vs := values[f.Name]
		if len(vs) == 0 {
			fmt.Fprintf(w, "| `%s` | %s | not run | |\n", f.Name, f.GoalText())
			continue
		}
		v := median(vs)
		mark := "met"
		if !f.Met(v) {
			mark = "**not met**"
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s |\n", f.Name, f.GoalText(), budget.Format(v, f.Unit), mark)
	}
}

func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	return s[len(s)/2]
}
