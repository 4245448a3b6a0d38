package client

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
)

// patchFiles reads the files a Codex apply_patch touches: every added,
// updated, moved-to or deleted path. A patch that names no file cannot be
// seen through and is an error.
func patchFiles(patch string) ([]FileUse, error) {
	var out []FileUse
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimRight(line, "\r")
		for _, h := range [...]struct {
			prefix string
			op     risk.Op
		}{
			{"*** Add File: ", risk.OpWrite},
			{"*** Update File: ", risk.OpWrite},
			{"*** Move to: ", risk.OpWrite},
			{"*** Delete File: ", risk.OpDelete},
		} {
			if p, ok := strings.CutPrefix(line, h.prefix); ok {
				p = strings.TrimSpace(p)
				if p == "" {
					return nil, errorf("apply_patch names an empty path")
				}
				out = append(out, FileUse{h.op, p})
			}
		}
	}
	if len(out) == 0 {
		return nil, errorf("apply_patch names no file")
	}
	return out, nil
}
