package project

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sayso-dev/sayso/internal/risk"
)

// composeNames are the files docker compose looks for, in its order, and
// the override files it merges beside them.
var (
	composeNames  = []string{"compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"}
	overrideNames = []string{"compose.override.yaml", "compose.override.yml", "docker-compose.override.yaml", "docker-compose.override.yml"}
)

// maxCompose bounds a compose file sayso reads.
const maxCompose = 1 << 20

// readCompose reads what the compose file at path — or, for a folder, the
// file compose finds from it (there or above) with its override — hands
// the containers it starts, as docker run options. What it cannot read
// whole (a variable in a path or a privilege, another file included or
// extended, YAML it does not understand) leaves the step unread.
func readCompose(path string) risk.Compose {
	var files []string
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		base := findCompose(path)
		if base == "" {
			return risk.Compose{Unread: "no compose file is found from " + path}
		}
		files = append(files, base)
		for _, n := range overrideNames {
			if p := filepath.Join(filepath.Dir(base), n); isFile(p) {
				files = append(files, p)
			}
		}
	} else {
		files = []string{path}
	}
	dirs := []string{filepath.Dir(files[0])}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() && path != dirs[0] {
		dirs = append(dirs, path)
	}
	for _, d := range dirs {
		if why := composeDotEnv(d); why != "" {
			return risk.Compose{Files: files, Unread: why}
		}
	}
	out := risk.Compose{Files: files}
	for _, f := range files {
		args, err := composeArgs(f)
		if err != nil {
			return risk.Compose{Files: files, Unread: err.Error()}
		}
		out.Args = append(out.Args, args...)
	}
	return out
}

// findCompose is the compose file compose uses from folder dir: the first
// of its names in dir, else in the folder above, up to the root.
func findCompose(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, n := range composeNames {
			if p := filepath.Join(d, n); isFile(p) {
				return p
			}
		}
		if d == "/" || d == "." {
			return ""
		}
	}
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// composeArgs reads one compose file into docker run options, relative
// paths made absolute from its folder.
func composeArgs(file string) ([]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", file, err)
	}
	if len(b) > maxCompose {
		return nil, fmt.Errorf("%s is larger than sayso reads", file)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s is not YAML sayso reads: %v", file, err)
	}
	// Compose merges every document of the file into the first.
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s holds several YAML documents, which compose merges and sayso does not read", file)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	r := composeReader{file: file, dir: filepath.Dir(file)}
	r.top(doc.Content[0])
	return r.args, r.err
}

// composeReader walks one compose file's YAML.
type composeReader struct {
	file, dir string
	args      []string
	err       error
}

func (r *composeReader) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s: "+format, append([]any{r.file}, a...)...)
	}
}

// each calls f for each key and value of mapping n.
func each(n *yaml.Node, f func(key string, v *yaml.Node)) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), n.Content[i+1]
		if k.Tag == "!!merge" { // <<: *anchor, or <<: [*a, *b]
			list(deref(v), func(m *yaml.Node) { each(m, f) })
			continue
		}
		f(k.Value, deref(v))
	}
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// scalar is n's text; a variable compose would put in (not "$$") is not
// read.
func (r *composeReader) scalar(what string, n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		r.fail("%s is not a plain value", what)
		return "", false
	}
	if strings.Contains(strings.ReplaceAll(n.Value, "$$", ""), "$") {
		r.fail("%s %q holds a variable compose fills in", what, n.Value)
		return "", false
	}
	return n.Value, true
}

// list calls f for each item of sequence n, or n itself when it is one value.
func list(n *yaml.Node, f func(*yaml.Node)) {
	if n == nil {
		return
	}
	if n.Kind == yaml.SequenceNode {
		for _, x := range n.Content {
			f(deref(x))
		}
		return
	}
	f(n)
}

// abs is p from the compose file's folder.
func (r *composeReader) abs(p string) string {
	if filepath.IsAbs(p) || strings.HasPrefix(p, "~") {
		return p
	}
	return filepath.Join(r.dir, p)
}

func (r *composeReader) top(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		r.fail("is not a mapping")
		return
	}
	each(n, func(key string, v *yaml.Node) {
		switch key {
		case "name", "version", "networks":
		case "include":
			r.fail("includes other compose files, which sayso does not read")
		case "services":
			each(v, func(name string, s *yaml.Node) { r.service(name, s) })
		case "volumes":
			each(v, func(name string, vol *yaml.Node) {
				each(vol, func(k string, opts *yaml.Node) {
					if k != "driver_opts" {
						return
					}
					each(opts, func(o string, x *yaml.Node) {
						if o == "device" {
							if d, ok := r.scalar("volume "+name+" device", x); ok {
								r.args = append(r.args, "-v", r.abs(d)+":/volume")
							}
						}
					})
				})
			})
		case "secrets", "configs":
			each(v, func(name string, x *yaml.Node) {
				each(x, func(k string, f *yaml.Node) {
					if k == "file" {
						if p, ok := r.scalar(key+" "+name, f); ok {
							r.args = append(r.args, "-v", r.abs(p)+":/run/"+key+"/"+name+":ro")
						}
					}
				})
			})
		default:
			if !strings.HasPrefix(key, "x-") {
				r.fail("%q is not a key sayso knows at the top of a compose file", key)
			}
		}
	})
}

func (r *composeReader) service(name string, s *yaml.Node) {
	each(s, func(key string, v *yaml.Node) {
		what := "service " + name + " " + key
		switch key {
		case "use_api_socket":
			if x, ok := r.scalar(what, v); ok && x != "false" {
				r.args = append(r.args, "-v", "/var/run/docker.sock:/var/run/docker.sock")
			}
		case "build":
			if v.Kind == yaml.MappingNode {
				each(v, func(k string, _ *yaml.Node) {
					if !inertBuildKeys[k] {
						r.fail("%s %s hands the build what the file does not show (the host's ssh agent, secrets, entitlements, other folders)", what, k)
					}
				})
			}
		case "post_start", "pre_stop":
			list(v, func(x *yaml.Node) {
				each(x, func(k string, _ *yaml.Node) {
					if k != "command" && k != "user" && k != "working_dir" && k != "environment" {
						r.fail("%s %s runs a command the file does not show whole", what, k)
					}
				})
			})
		case "extends":
			each(v, func(k string, _ *yaml.Node) {
				if k == "file" {
					r.fail("%s names another compose file, which sayso does not read", what)
				}
			})
		case "privileged":
			if x, ok := r.scalar(what, v); ok && x != "false" {
				r.args = append(r.args, "--privileged")
			}
		case "cap_add", "security_opt", "devices":
			flag := map[string]string{"cap_add": "--cap-add", "security_opt": "--security-opt", "devices": "--device"}[key]
			list(v, func(x *yaml.Node) {
				if x.Kind == yaml.MappingNode { // devices' long form
					r.args = append(r.args, flag, "host")
					return
				}
				if val, ok := r.scalar(what, x); ok {
					r.args = append(r.args, flag, val)
				}
			})
		case "device_cgroup_rules", "volumes_from":
			// Devices the container may make (the host's disk); another
			// container's mounts, which this file does not show.
			flag := map[string]string{"device_cgroup_rules": "--device-cgroup-rule", "volumes_from": "--volumes-from"}[key]
			list(v, func(x *yaml.Node) { r.args = append(r.args, flag, x.Value) })
		case "pid", "userns_mode":
			if x, ok := r.scalar(what, v); ok && x == "host" {
				r.args = append(r.args, map[string]string{"pid": "--pid=host", "userns_mode": "--userns=host"}[key])
			}
		case "env_file":
			list(v, func(x *yaml.Node) {
				if x.Kind == yaml.MappingNode {
					each(x, func(k string, p *yaml.Node) {
						if k == "path" {
							if f, ok := r.scalar(what, p); ok {
								r.args = append(r.args, "--env-file", r.abs(f))
							}
						}
					})
					return
				}
				if f, ok := r.scalar(what, x); ok {
					r.args = append(r.args, "--env-file", r.abs(f))
				}
			})
		case "volumes":
			list(v, func(x *yaml.Node) { r.volume(what, x) })
		default:
			if !inertServiceKeys[key] && !strings.HasPrefix(key, "x-") {
				r.fail("%s is not a key sayso knows in a service: what it hands the container is not read", what)
			}
		}
	})
}

// inertServiceKeys are the keys of a compose service that hand its
// container nothing of the host's beyond what docker run's judge reads
// elsewhere: a key not here, nor read above, leaves the file unread.
var inertServiceKeys = map[string]bool{
	"annotations": true, "attach": true, "blkio_config": true, "cgroup_parent": true, "command": true,
	"container_name": true, "cpu_count": true, "cpu_percent": true, "cpu_shares": true, "cpu_period": true,
	"cpu_quota": true, "cpu_rt_runtime": true, "cpu_rt_period": true, "cpus": true, "cpuset": true,
	"depends_on": true, "deploy": true, "develop": true, "dns": true, "dns_opt": true, "dns_search": true,
	"domainname": true, "entrypoint": true, "environment": true, "expose": true, "external_links": true,
	"extra_hosts": true, "gpus": true, "group_add": true, "healthcheck": true, "hostname": true, "image": true,
	"init": true, "ipc": true, "isolation": true, "labels": true, "links": true, "logging": true,
	"mac_address": true, "mem_limit": true, "mem_reservation": true, "mem_swappiness": true, "memswap_limit": true,
	"networks": true, "network_mode": true, "oom_kill_disable": true, "oom_score_adj": true, "pids_limit": true,
	"platform": true, "ports": true, "profiles": true, "pull_policy": true, "read_only": true, "restart": true,
	"scale": true, "secrets": true, "configs": true, "shm_size": true, "stdin_open": true, "stop_grace_period": true,
	"stop_signal": true, "storage_opt": true, "sysctls": true, "tmpfs": true, "tty": true, "ulimits": true,
	"uts": true, "user": true, "working_dir": true,
}

// inertBuildKeys are the keys of a service's build that hand the build
// nothing beyond its context.
var inertBuildKeys = map[string]bool{
	"context": true, "dockerfile": true, "dockerfile_inline": true, "args": true, "target": true,
	"cache_from": true, "cache_to": true, "labels": true, "network": true, "shm_size": true, "tags": true,
	"platforms": true, "pull": true, "no_cache": true, "extra_hosts": true, "isolation": true, "ulimits": true,
}

// volume reads one of a service's volumes: a bind of a host path is a
// -v of it; a named volume is the engine's own.
func (r *composeReader) volume(what string, x *yaml.Node) {
	if x.Kind == yaml.MappingNode {
		kind, src, dst, ro := "", "", "/mnt", false
		each(x, func(k string, v *yaml.Node) {
			switch k {
			case "type":
				kind, _ = r.scalar(what+" type", v)
			case "source":
				src, _ = r.scalar(what+" source", v)
			case "target":
				dst = v.Value
			case "read_only":
				ro = v.Value == "true"
			}
		})
		if kind == "bind" {
			spec := r.abs(src) + ":" + dst
			if ro {
				spec += ":ro"
			}
			r.args = append(r.args, "-v", spec)
		}
		return
	}
	spec, ok := r.scalar(what, x)
	if !ok {
		return
	}
	src, rest, hasDst := strings.Cut(spec, ":")
	if !hasDst || !(strings.HasPrefix(src, "/") || strings.HasPrefix(src, ".") || strings.HasPrefix(src, "~")) {
		return // an anonymous or named volume
	}
	r.args = append(r.args, "-v", r.abs(src)+":"+rest)
}

// composeDotEnv says why the .env file of compose's project folder dir
// leaves the step unread, or "". Compose takes its own settings from it:
// COMPOSE_FILE picks other compose files than the ones sayso read,
// COMPOSE_ENV_FILES other files still, DOCKER_HOST another daemon. A
// .env that sets any COMPOSE_ or DOCKER_ variable, or that sayso cannot
// read, is not followed.
func composeDotEnv(dir string) string {
	p := filepath.Join(dir, ".env")
	fi, err := os.Stat(p)
	switch {
	case os.IsNotExist(err):
		return ""
	case err != nil:
		return fmt.Sprintf("cannot read %s, where compose takes its settings: %v", p, err)
	case !fi.Mode().IsRegular() || fi.Size() > maxCompose:
		return p + ", where compose takes its settings, is not a file sayso reads"
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Sprintf("cannot read %s, where compose takes its settings: %v", p, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimSpace(strings.TrimPrefix(line, "export "))
		name, _, _ := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if strings.HasPrefix(name, "COMPOSE_") || strings.HasPrefix(name, "DOCKER_") {
			return p + " sets " + name + " for compose itself: the files, daemon or settings it uses are not the ones sayso read"
		}
	}
	return ""
}
