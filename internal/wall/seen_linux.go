package wall

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sayso-dev/sayso/internal/atomicfile"
)

// SeenFile is the name of the record, in sayso's state folder, of the
// launcher's last real run: the state folder is hidden from every walled
// step, so no step can write that the wall works.
const SeenFile = "wall-seen.json"

// failedFor is how long a failed run is trusted before the launcher is
// run again: a failure may have been fixed by a kernel setting, which
// changes nothing the record is keyed on.
const failedFor = time.Minute

// seen is one real run of a launcher: which binary (its file's identity),
// for which user, on which kernel, and how it ended.
type seen struct {
	Launcher string    `json:"launcher"`
	Dev      uint64    `json:"dev"`
	Ino      uint64    `json:"ino"`
	Size     int64     `json:"size"`
	Mtime    int64     `json:"mtime_ns"`
	Ctime    int64     `json:"ctime_ns"`
	UID      int       `json:"uid"`
	Kernel   string    `json:"kernel"`
	Err      string    `json:"err,omitempty"` // why it failed; "" when it held
	At       time.Time `json:"at"`
}

// same reports whether r records the run of the launcher id names.
func (r seen) same(id seen) bool {
	return r.Launcher == id.Launcher && r.Dev == id.Dev && r.Ino == id.Ino && r.Size == id.Size &&
		r.Mtime == id.Mtime && r.Ctime == id.Ctime && r.UID == id.UID && r.Kernel == id.Kernel
}

// identify is the record's key for launcher: the file, this user, this
// kernel.
func identify(launcher string) (seen, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(launcher, &st); err != nil {
		return seen{}, fmt.Errorf("launcher %s: %w", launcher, err)
	}
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return seen{}, fmt.Errorf("read the kernel's name: %w", err)
	}
	return seen{
		Launcher: launcher, Dev: st.Dev, Ino: st.Ino, Size: st.Size,
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(), UID: os.Getuid(),
		Kernel: unix.ByteSliceToString(u.Release[:]) + " " + unix.ByteSliceToString(u.Version[:]),
	}, nil
}

// Verified is nil when launcher has been seen to set up its wall for
// this user on this kernel: a real run (Check), remembered in record
// (sayso's state folder, SeenFile) and run again when the launcher's
// file, the user or the kernel changes, or when fresh is set. A failed
// run is remembered for a minute. The kernel's settings are read every
// time (Probe).
func Verified(launcher, record string, fresh bool) error {
	if err := Probe(); err != nil {
		return err
	}
	id, err := identify(launcher)
	if err != nil {
		return err
	}
	if !fresh {
		var r seen
		if b, err := os.ReadFile(record); err == nil && json.Unmarshal(b, &r) == nil && r.same(id) {
			switch {
			case r.Err == "":
				return nil
			case time.Since(r.At) < failedFor:
				return errors.New(r.Err)
			}
		}
	}
	err = Check(launcher)
	id.At = time.Now().UTC()
	if err != nil {
		id.Err = err.Error()
	}
	// A record that cannot be written costs the next step a run of the
	// launcher; it is no reason to refuse this one.
	_ = writeSeen(record, id)
	return err
}

// writeSeen replaces the record atomically, 0600.
func writeSeen(path string, r seen) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, b, 0o600)
}
