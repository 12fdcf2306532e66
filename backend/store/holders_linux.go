package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// otherHolders lists the other processes that hold the liveness flock of the database at path
// (other agentdesk windows and commands), from /proc/locks; nil when none or unknown.
func otherHolders(path string) []int {
	var st syscall.Stat_t
	if err := syscall.Stat(path+".lock", &st); err != nil {
		return nil
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return nil
	}
	defer f.Close()
	// Lines read "1: FLOCK  ADVISORY  READ 24457 fe:00:9986057 0 EOF": pid, then major:minor:inode
	// (major and minor in hex).
	dev := fmt.Sprintf("%02x:%02x:%d", unix.Major(st.Dev), unix.Minor(st.Dev), st.Ino)
	self := os.Getpid()
	var pids []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != dev {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid != self {
			pids = append(pids, pid)
		}
	}
	return pids
}
