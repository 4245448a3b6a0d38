package shell

import (
	"testing"

	"github.com/sayso-dev/sayso/internal/program"
)

// TestWrappersRegistered: every wrapper shell peels is a wrapper in the
// registry, and every wrapper of the registry is peeled.
func TestWrappersRegistered(t *testing.T) {
	for n := range wrappers {
		if !program.Is(n, program.Wrapper) {
			t.Errorf("shell peels %q, which the registry does not call a wrapper", n)
		}
	}
	for _, n := range program.Names(program.Wrapper) {
		if _, ok := wrappers[n]; !ok {
			t.Errorf("the registry calls %q a wrapper, which shell does not peel", n)
		}
	}
	for _, n := range []string{"git", "npx", "npm", "pnpm", "yarn", "watchexec", "nodemon", "hyperfine", "concurrently", "fd", "tmux", "screen", "script",
		"direnv", "mise", "uv", "aws-vault", "sops", "cmake", "doppler", "poetry", "pipenv", "pdm", "hatch", "rye", "bundle", "devbox", "pixi", "conda", "nix", "nix-shell"} {
		if !program.Is(n, program.RunsArgs) {
			t.Errorf("shell reads the command %q runs, which the registry does not say", n)
		}
	}
}

// TestRunsArgs reads the commands the registry's runners run.
func TestRunsArgs(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"run0 rm -rf /", "rm"},
		{"run0 -u root --chdir=/ rm x", "rm"},
		{"sg docker -c 'docker ps'", "docker"},
		{"sshpass -p pw ssh host", "ssh"},
		{"watchexec -e go -- go test ./...", "go"},
		{"watchexec 'cargo build && ./deploy.sh'", "./deploy.sh"},
		{"nodemon --exec 'python app.py'", "python"},
		{"nodemon server.js", "node"},
		{"hyperfine --prepare 'make clean' 'make build'", "make"},
		{"direnv exec . terraform apply", "terraform"},
		{"mise exec node@20 -- npm publish", "npm"},
		{"mise x -- kubectl apply -f k.yaml", "kubectl"},
		{"uv run --with httpx python x.py", "python"},
		{"uv run pytest -q", "pytest"},
		{"aws-vault exec prod -- aws s3 rm s3://b --recursive", "aws"},
		{"sops exec-env secrets.yaml 'psql -c \"drop table x\"'", "psql"},
		{"cmake -E env FOO=1 rm -rf /", "rm"},
		{"fd -e tmp -x rm {}", "rm"},
		{"tmux new -d -s dev 'npm run dev'", "npm"},
		{"tmux new-session -d -s w -- kubectl port-forward svc/x 8080", "kubectl"},
		{"concurrently 'npm:watch' 'vercel deploy'", "vercel"},
		{"poetry run twine upload dist/*", "twine"},
		{"bundle exec cap production deploy", "cap"},
		{"doppler run -- fly deploy", "fly"},
		{"nix develop -c cargo publish", "cargo"},
		{"entr -s 'make deploy'", "make"},
		{"screen -dmS s rsync -a . host:", "rsync"},
		{"script -q -c 'git push -f' /dev/null", "git"},
	} {
		s := Parse(tc.src)
		found := false
		for _, seg := range s.Segments {
			if len(seg.Args) > 0 && seg.Args[0].Value == tc.want {
				found = true
			}
		}
		if !found {
			t.Errorf("Parse(%q) has no segment running %s: %+v", tc.src, tc.want, s.Segments)
		}
	}
}
