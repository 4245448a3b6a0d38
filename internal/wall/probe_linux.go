package wall

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Probe is nil when this machine can apply the wall, else why not: no
// Landlock, a Landlock ABI older than 6 (no scoping of signals and
// abstract sockets), or user namespaces turned off or restricted. It
// reads the kernel's settings and runs nothing; Check runs the launcher.
func Probe() error {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return fmt.Errorf("no Landlock: %w (boot with lsm=…,landlock)", err)
	}
	if v < minABI {
		return fmt.Errorf("this kernel's Landlock ABI %d is too old: the wall needs %d (Linux 6.12) to keep signals and abstract sockets inside", v, minABI)
	}
	if e, err := ll.LandlockGetErrata(); err != nil || e&0x2 == 0 {
		return errors.New("this kernel's Landlock signal scoping has a known bug: update the kernel")
	}
	if readInt("/proc/sys/user/max_user_namespaces", 1) == 0 {
		return errors.New("user namespaces are turned off (user.max_user_namespaces = 0)")
	}
	if os.Geteuid() != 0 {
		if readInt("/proc/sys/kernel/unprivileged_userns_clone", 1) == 0 {
			return errors.New("unprivileged user namespaces are turned off (kernel.unprivileged_userns_clone = 0)")
		}
		if readInt("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", 0) == 1 {
			return errors.New("unprivileged user namespaces are restricted by AppArmor (kernel.apparmor_restrict_unprivileged_userns = 1): allow the launcher in an AppArmor profile")
		}
	}
	return nil
}

// readInt reads a number from a kernel setting, or def when it is
// missing or unreadable.
func readInt(path string, def int) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return def
	}
	var n int
	if _, err := fmt.Sscan(string(b), &n); err != nil {
		return def
	}
	return n
}

// Check runs the launcher at launcher for real: it sets up a Read wall
// and runs nothing. Nil means the wall holds on this machine now.
func Check(launcher string) error {
	if err := Probe(); err != nil {
		return err
	}
	cmd := exec.Command(launcher, "--check", "--scope", "read", "--write", "/tmp")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("launcher %s: %s", launcher, msg)
	}
	return nil
}
