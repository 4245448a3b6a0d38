// The table of the programs sayso knows by a classifier of their own.

package risk

// toolbox are the classifiers of the everyday toolbox beyond programs.go:
// other version control systems and forges, database and queue clients,
// disk tools, deploy tools, senders, and the programs that run others.
func toolbox() map[string]func(*cmd) {
	return map[string]func(*cmd){
		"svn": svn, "pg_ctl": pgCtl, "kafka-console-producer": kafkaProducer, "skaffold": skaffold, "tilt": tilt, "packer": packer,
		"kustomize": kustomize, "kubectx": kubeContext, "kubens": kubeContext, "k9s": k9s, "swaks": swaks, "mise": mise,
		"aws-vault": awsVault,
	}
}

// addToolbox adds the toolbox to programs.
func addToolbox(programs map[string]func(*cmd)) {
	for k, v := range toolbox() {
		programs[k] = v
	}
}

func readOnlyFamily() family {
	return family{names: []string{"kafka-console-consumer.sh", "pg_isready", "kafka-console-consumer", "stern", "watch"}, classify: readOnly}
}

func readOnly(c *cmd) { c.add(Read, OnlyReads.By(c.name, "", "")) }

func opaqueProgramFamily() family {
	return family{names: []string{"hurl", "lazygit", "lazydocker", "ranger", "broot", "wine", "coproc"}, classify: opaqueProgram}
}

func opaqueProgram(c *cmd) { c.add(Opaque, RunsUnread.By(c.name, "", "")) }

// word returns the first n operands as plain words (options skipped).
func (c *cmd) verb() string { return c.words(1)[0] }
