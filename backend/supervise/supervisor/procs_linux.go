package supervisor

import (
	"os"
	"strconv"
	"syscall"
)

// Proc is one process as /proc/PID/stat describes it.
type Proc struct {
	Pid, PPid, Pgid int
	Gone            bool // a zombie (it only waits for its parent to reap it) or dead
}

// Procs lists the processes of the machine (those that end while it reads are left out).
func Procs() []Proc {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	out := make([]Proc, 0, len(names))
	var buf [256]byte // the fields wanted come within the first 256 bytes: pid (comm) state ppid pgrp
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if p, ok := stat(pid, buf[:]); ok {
			out = append(out, p)
		}
	}
	return out
}

// stat reads process pid's /proc/PID/stat into buf and parses it.
func stat(pid int, buf []byte) (Proc, bool) {
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return Proc{}, false
	}
	n, err := syscall.Read(fd, buf)
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return Proc{}, false
	}
	// The fields after the command name, which is in parentheses and may hold spaces and ')'.
	s := buf[:n]
	end := -1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ')' {
			end = i
			break
		}
	}
	if end < 0 {
		return Proc{}, false
	}
	f := fields(s[end+1:], 3)
	if len(f) < 3 || len(f[0]) == 0 {
		return Proc{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	if err1 != nil || err2 != nil {
		return Proc{}, false
	}
	return Proc{Pid: pid, PPid: ppid, Pgid: pgid, Gone: f[0][0] == 'Z' || f[0][0] == 'X'}, true
}

// fields splits s at spaces into at most n fields.
func fields(s []byte, n int) [][]byte {
	var out [][]byte
	for len(s) > 0 && len(out) < n {
		for len(s) > 0 && s[0] == ' ' {
			s = s[1:]
		}
		i := 0
		for i < len(s) && s[i] != ' ' && s[i] != '\n' {
			i++
		}
		if i > 0 {
			out = append(out, s[:i])
		}
		s = s[i:]
		if len(s) > 0 && s[0] == '\n' {
			break
		}
	}
	return out
}

// Descendants lists the running processes descended from pid (zombies are passed through: their
// children are still found).
func Descendants(pid int) []int {
	children := map[int][]Proc{}
	for _, p := range Procs() {
		children[p.PPid] = append(children[p.PPid], p)
	}
	var out []int
	next := []int{pid}
	for len(next) > 0 {
		parent := next[len(next)-1]
		next = next[:len(next)-1]
		for _, c := range children[parent] {
			if !c.Gone {
				out = append(out, c.Pid)
			}
			next = append(next, c.Pid)
		}
	}
	return out
}
