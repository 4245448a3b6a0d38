package gateway_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built are the binaries the tests run as separate processes, built once.
var built struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

func buildBinaries(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "sayso-gateway-bin-")
		if built.err != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", built.dir+"/", "github.com/sayso-dev/sayso/cmd/sayso", "github.com/sayso-dev/sayso/cmd/sayso-hook")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("build sayso: %v\n%s", built.err, built.out)
	}
	return built.dir
}

func buildSayso(t *testing.T) string { return filepath.Join(buildBinaries(t), "sayso") }

func buildForwarder(t *testing.T) string { return filepath.Join(buildBinaries(t), "sayso-hook") }
