package supervise

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"

	"agentdesk/backend/supervise/supervisor"
	"golang.org/x/sys/unix"
)

// Nothing an agent or a terminal starts outlives it. The kernel's parent-death signal reaches
// only the direct child, and a process that leaves its process group or session (setsid, a
// daemon's double fork) escapes every signal sent to the group. So each agent and each
// terminal's shell runs under a supervisor, in the child's process group: the
// agentdesk-supervisor binary (package supervisor), the subreaper of everything below it, which
// kills every process descended from it when its child exits, when agentdesk closes its control
// pipe (Tree.Kill) and when agentdesk is gone however it ended, then reports whether anything
// could not be killed (Tree.Left).
//
// It is a small static binary of its own rather than agentdesk re-executed: agentdesk links
// WebKitGTK, and each re-execution paid ~9 MiB of the shared libraries' private relocations
// and every package's init (11.7 MiB of private memory a session against well under 1 MiB now).

// heldSupervisor is the supervisor binary Supervise runs: /proc/self/fd/N of the file
// EnableSupervisor opened, so that an upgrade replacing the file while agentdesk runs never
// pairs this agentdesk with another version's supervisor (as /proc/self/exe did for the
// re-executed binary); or why there is none.
type heldSupervisor struct {
	exe string
	err error
}

// heldFdMin is the lowest fd the binary is held at: high above the fds a child is given (stdio,
// the supervisor's pipes, and those os/exec moves out of their way while it sets them up), so
// that /proc/self/fd/N still names the binary in the child when it execs.
const heldFdMin = 100

// killAllFor is how long a supervisor tries to kill its tree (Process.Close waits a little more).
const killAllFor = supervisor.KillAllFor

var held atomic.Pointer[heldSupervisor]

// Beside is where the supervisor binary belongs: next to the running executable (os.Executable),
// where scripts/build.sh and the .deb put it.
func Beside() string {
	exe, err := os.Executable()
	if err != nil {
		return supervisor.Name // found nowhere: EnableSupervisor's error names it
	}
	return filepath.Join(filepath.Dir(exe), supervisor.Name)
}

// EnableSupervisor makes every agent and terminal started after it run under the supervisor
// binary at path (Beside for agentdesk; tests build one with proctest.Supervisor), so that
// nothing it starts outlives it, however it ends. It opens the file and holds it for good. When
// the file cannot be opened or is not an executable file, the error says so and what to do,
// and every start (Start, Supervise) fails with it: a command never runs unsupervised for a
// missing binary. Called once by main, and by the TestMain of tests that start real agents.
func EnableSupervisor(path string) error {
	h := &heldSupervisor{}
	defer held.Store(h)
	fd, err := open(path)
	if err != nil {
		h.err = fmt.Errorf("%s is missing or broken (%w): agentdesk runs every agent and terminal command under it. "+
			"Reinstall agentdesk, or build it next to agentdesk in agentdesk's source folder: go build -o %s ./cmd/agentdesk-supervisor (scripts/build.sh does)",
			supervisor.Name, err, path)
		return h.err
	}
	h.exe = "/proc/self/fd/" + strconv.Itoa(fd)
	return nil
}

// open opens the executable file at path at an fd of at least heldFdMin, close-on-exec.
func open(path string) (int, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return -1, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || st.Mode&0o111 == 0 {
		return -1, &os.PathError{Op: "exec", Path: path, Err: errors.New("not an executable file")}
	}
	high, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, heldFdMin)
	if err != nil {
		return -1, &os.PathError{Op: "hold", Path: path, Err: err}
	}
	return high, nil
}
