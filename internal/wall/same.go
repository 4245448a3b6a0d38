package wall

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

// maxSum bounds the files Sum reads: a larger one sums as "large", which
// no other content matches, so it never counts as unchanged.
const maxSum = 64 << 20

// Sum is the SHA-256 of the regular file at path, hex; "" when there is
// none, "unreadable" or "large" when it cannot be summed.
func Sum(path string) string {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return ""
		}
		return "unreadable"
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return "unreadable"
	}
	if fi.Size() > maxSum {
		return "large"
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// changed is the first file of same ("SUM:PATH", Profile.Same) whose
// content is no longer what was decided, and why; "" when none.
func changed(same []string) string {
	for _, s := range same {
		sum, path, _ := strings.Cut(s, ":")
		if sum == "unreadable" || sum == "large" {
			return fmt.Sprintf("%s could not be read when the step was decided, so what runs cannot be held to it", path)
		}
		if now := Sum(path); now != sum {
			switch {
			case sum == "":
				return fmt.Sprintf("%s was made after the step was decided", path)
			case now == "":
				return fmt.Sprintf("%s was removed after the step was decided", path)
			}
			return fmt.Sprintf("%s changed after the step was decided", path)
		}
	}
	return ""
}
