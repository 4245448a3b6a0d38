// Package testenv says what a test does when a real thing it drives — a
// client, a browser, a kernel feature, a tool — is missing: on a developer's
// machine it skips and says what to install; in CI (SAYSO_CI=1, set by
// .ci/run) it fails, so CI can never go green by skipping.
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// CI reports whether the tests run in CI, where nothing may skip.
func CI() bool { return os.Getenv("SAYSO_CI") == "1" }

// Missing ends the test because a real thing it needs is absent: a skip
// outside CI, a failure in it.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if CI() {
		t.Fatalf("missing in CI (SAYSO_CI=1): %s", msg)
	}
	t.Skip("SKIP: " + msg)
}
