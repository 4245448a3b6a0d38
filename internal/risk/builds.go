package risk

import "github.com/sayso-dev/sayso/internal/program"

// buildsFamily: the programs that build, check, format or run the
// project's code in the project, whatever their arguments (package
// program's builds.go names them): local work in the working folder, and
// what their operands name is read.
func buildsFamily() family {
	return family{names: program.Builders(), traits: program.Builds, classify: builds}
}

func builds(c *cmd) {
	c.add(LocalWrite, RunsProject.By(c.name, "", ""))
	if sp, ok := writeSpecs[c.name]; ok {
		c.specWrites(sp)
	}
	c.readSecrets()
	c.cwdWrite()
}
