package wall

import (
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// lookProgram finds name as bash would for a step in folder dir with
// environment env: a name with a slash as it is, otherwise the first
// executable regular file of that name in PATH's folders (an empty one
// is the step's folder). ok is false when there is none, or PATH is
// unset, or one of PATH's folders begins with a tilde, which bash reads
// as a home's (`PATH="~/bin:$PATH"`) and not as a folder named `~` in
// the step's folder: bash then finds it, or says why, itself.
func lookProgram(name, dir string, env []string) (string, bool) {
	at := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	if strings.ContainsRune(name, '/') {
		return name, executable(at(name))
	}
	path, ok := "", false
	for _, e := range env {
		if v, found := strings.CutPrefix(e, "PATH="); found {
			path, ok = v, true
		}
	}
	if !ok {
		return "", false
	}
	folders := strings.Split(path, ":")
	for _, d := range folders {
		if strings.HasPrefix(d, "~") {
			return "", false
		}
	}
	for _, d := range folders {
		if d == "" {
			d = "."
		}
		p := d + "/" + name
		if executable(at(p)) {
			return p, true
		}
	}
	return "", false
}

// executable reports whether path is a regular file this process may
// execute.
func executable(path string) bool {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return false
	}
	return unix.Faccessat(unix.AT_FDCWD, path, unix.X_OK, unix.AT_EACCESS) == nil
}

// physical is the folder dir as `pwd -P` run in it says it: its path
// with every link followed, as the kernel names it.
func physical(dir string) (string, bool) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", false
	}
	defer unix.Close(fd)
	b := make([]byte, unix.PathMax)
	n, err := unix.Readlink("/proc/self/fd/"+strconv.Itoa(fd), b)
	if err != nil || n <= 0 || b[0] != '/' || strings.HasSuffix(string(b[:n]), " (deleted)") {
		return "", false
	}
	return string(b[:n]), true
}
