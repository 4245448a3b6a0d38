module github.com/sayso-dev/sayso

go 1.26.8

require (
	github.com/pelletier/go-toml/v2 v2.4.3
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)
