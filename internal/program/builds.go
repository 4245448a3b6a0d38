package program

import "strings"

// builds registers the programs that build, check, format or run the
// project's code in the project, and whose class does not depend on their
// arguments: risk's builds family (risk/builds.go) classifies each of them
// local work in the working folder. Programs of other families build too,
// and are registered with their families.
func (r builder) builds() {
	// Interpreters and runtimes.
	r.add(Interpreter, `elixir erl`)

	// Runners of the project's tasks and of programs the project names.
	r.add(Runner, `nox tox ant sbt lein ninja`)
	r.add(Launcher|RunsArgs, `entr`)
	r.verbs("swift", "run")
	r.verbs("stack", "run", "exec")
	r.verbs("cabal", "run", "exec")
	r.verbs("dune", "exec")

	r.add(Wrapper, `entr`)
	r.add(Builds, builds)
}

// Builders lists the programs of the builds family.
func Builders() []string { return strings.Fields(builds) }

const builds = `
	tox nox sbt devenv cargo-sort cargo-deny cargo-nextest cargo-insta cargo-udeps cargo-machete
	cargo-shear cargo-llvm-cov cargo-tarpaulin cargo-audit cargo-outdated cargo-expand cargo-fuzz
	rst2html gotmplfmt pyodide msgfmt csplit lzip unar stylus sync goimports gopls prettier eslint
	black ruff rustfmt rustc clippy-driver tsc esbuild webpack vite rollup parcel swc babel jest
	vitest mocha ava tap karma cypress pytest coverage mypy pyright pylint flake8 bandit ld ar ranlib
	strip objdump nm readelf ninja meson bazel bazelisk buck2 scons autoreconf configure autoconf
	automake libtool pkg-config javac kotlinc scalac ant lein clojure elixir erl rebar3 ghc cabal
	stack nim crystal dart flutter swift swiftc xcodebuild xcrun dune opam ocaml protoc buf sqlc wire
	mockgen stringer go-bindata templ air reflex entr hugo jekyll sphinx-build docusaurus gatsby next
	nuxt astro remix expo convert magick ffmpeg pandoc dot plantuml mermaid mmdc wkhtmltopdf pdftotext
	pdftoppm asdf rtx nvm fnm volta pyenv rbenv goenv sdk rustup streamlit flask uvicorn gunicorn
	hypercorn celery vue-cli ng nx turbo rush ruby-build bundler-audit brakeman rubocop rspec minitest
	phpunit phpstan psalm php-cs-fixer mdbook zola trunk cargo-watch age rage sass tombi taplo stylua
	clang-tidy sqlfluff ktlint swiftformat standardrb biome dprint tailwindcss postcss svelte-kit
	svelte-check vue-tsc nuxi tsup unbuild rspack rsbuild storybook size-limit syncpack ncu
	npm-check-updates lint-staged plop hygen patch-package gotestsum richgo gofumpt golines dlv tinygo
	oapi-codegen swag gomplate pip-compile pip-sync virtualenv sphinx-autobuild papermill ptw
	pytest-watch cython basedpyright pyupgrade autoflake interrogate ty semgrep daphne waitress-serve
	dramatiq rq locust cross tauri dx jar jlink jpackage msbuild ctest cpack xmake premake5 qmake bear
	pest rector ormolu fourmolu foreman overmind hivemind act terraform-docs kubeseal kompose cue
	jsonnet ytt brotli pigz pbzip2 unrar lipo install_name_tool codesign xattr pbcopy xclip xsel
	wl-copy wl-paste notify-send say cursor subl zed hx helix micro kak idea ncdu zoxide watchman
	mkcert ldd
`
