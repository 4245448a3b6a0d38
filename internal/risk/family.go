package risk

import "github.com/sayso-dev/sayso/internal/program"

// family is everything sayso knows of one family of programs: the names
// they go by, the traits the registry gives each of them, and how a
// segment running one is classified. A family's entry and its classifier
// live in one file, named after the family (git.go holds git); a program
// name belongs to exactly one family, which TestLayout holds.
type family struct {
	// names are the programs of the family, as a segment names them.
	names []string
	// traits are traits the registry (package program) gives every name:
	// the registry sits below package shell, which reads them, so they are
	// stated here as well and TestLayout fails the day the two drift.
	traits program.Trait
	// classify classifies a segment running one of names.
	classify func(*cmd)
	// before, when set, runs first; when it reports true it has classified
	// the segment and classify does not run (npm's global options before
	// its verb). after, when set, runs last.
	before func(*cmd) bool
	after  func(*cmd)
	// runs says what the family runs of what it is given: code, shell
	// lines, the project's tasks. Wrappers and runners are seen through by
	// it: TestWrappersSeeThrough reads this field.
	runs runs
}

// runs is what a family runs of what it is given.
type runs uint8

const (
	runsOwn   runs = iota // only its own work: what it is given is data
	runsCode              // code from a file, a string or stdin: an interpreter
	runsShell             // shell lines: a shell
	runsTasks             // the project's tasks or scripts: a task runner
)

// classifier returns the function that classifies a program of f: its
// check before, its classifier, its check after.
func (f family) classifier() func(*cmd) {
	if f.before == nil && f.after == nil {
		return f.classify
	}
	return func(c *cmd) {
		if f.before == nil || !f.before(c) {
			f.classify(c)
		}
		if f.after != nil {
			f.after(c)
		}
	}
}

// families is the table of the families of programs, one entry per
// family, each written in its own file. It is built on first use, with
// the other tables (loadTables): a package-level table could not name the
// classifiers.
func families() []family {
	return []family{
		gitFamily(), looksFamily(), buildsFamily(), wrappersFamily(), saysoFamily(),
		compressorFamily(), sevenZipFamily(), cpioFamily(), formatterFamily(), journalctlFamily(), setVerbsFamily(), iconvFamily(),
		yqFamily(), spongeFamily(), xxdFamily(),
		interpreterFamily(), denoFamily(), bunFamily(), awkFamily(), shellFamily(),
		makeFamily(), taskRunnerFamily(),
		npmFamily(), npxFamily(), cargoFamily(), pipFamily(), uvFamily(), pipxFamily(), poetryFamily(), gemFamily(), composerFamily(),
		dockerFamily(), curlFamily(), scpFamily(), redisFamily(), awsFamily(), rcloneFamily(), systemctlFamily(), ghFamily(),
		agentFamily(), tmuxFamily(), jupyterFamily(), mixFamily(), zigFamily(), daemonFamily(), envManagerFamily(), rsyncFamily(), cpFamily(), zipFamily(), tarFamily(), edFamily(), dcFamily(),
		glabFamily(), goreleaserFamily(), publishVerbFamily(), skopeoFamily(), deployCLIFamily(), argocdFamily(), nomadFamily(), tunnelFamily(), textBrowserFamily(), gpgFamily(), manCmdFamily(), gdbFamily(), playwrightFamily(), browserProgramFamily(), gofmtFamily(), colonFamily(), sshKeygenFamily(), sshAddFamily(), tracerFamily(),
		releaseToolFamily(), namedTaskRunnerFamily(), railsFamily(), wpCLIFamily(), huskyFamily(), dbtFamily(), cdkFamily(), genericCloudFamily(), sentryCLIFamily(), sqlClientFamily(), adbFamily(), defaultsFamily(), networkToolFamily(), opaqueProgramFamily(), snifferFamily(), aptFamily(), privilegedFamily(), fastapiCLIFamily(), rimrafFamily(), mkdirpFamily(), copyLikeFamily(), perfCmdFamily(), fuserFamily(), chattrFamily(), envsubstFamily(), kafkaTopicsFamily(), kafkaProducerFamily(), readOnlyFamily(), kafkaGroupsFamily(), corepackFamily(),
		jjFamily(),
		hgFamily(),
		teaFamily(),
		graphiteFamily(),
		otherVCSFamily(),
		pgAdminFamily(),
		dumpDBFamily(),
		restoreDBFamily(),
		mysqladminFamily(),
		etcdctlFamily(),
		rabbitmqFamily(),
		natsFamily(),
		localWriteFamily(),
		consulFamily(),
		partitionerFamily(),
		diskutilFamily(),
		hdiutilFamily(),
		mkdocsFamily(),
		koFamily(),
		helmfileFamily(),
		eksctlFamily(),
		flywayFamily(),
		liquibaseFamily(),
		prismaFamily(),
		migrationToolFamily(),
		dbmateFamily(),
		sqitchFamily(),
		fluxFamily(),
		vagrantFamily(),
		localClusterFamily(),
		buildahFamily(),
		dockerComposeFamily(),
		earthlyFamily(),
		opensslFamily(),
		websocketFamily(),
		tailscaleFamily(),
		networkConfigFamily(),
		sshCopyIDFamily(),
		sshFamily(),
		grpcurlFamily(),
		httpieFamily(),
		s3cmdFamily(),
		netcatFamily(),
		runsCommandFamily(),
		direnvFamily(),
		sopsFamily(),
		credstashFamily(),
		dopplerFamily(),
		envManagerFamily2(),
		nixFamily(),
		cmakeFamily(),
		fzfFamily(),
		editorFamily(),
		hubFamily(),
		compilerFamily(),
		kubectlFamily(),
		helmFamily(),
		terraformFamily(),
		pulumiFamily(),
		gcloudFamily(),
		gsutilFamily(),
		azureFamily(),
		flyFamily(),
		vercelFamily(),
		netlifyFamily(),
		herokuFamily(),
		ansibleFamily(),
		vaultFamily(),
		stripeFamily(),
		rmFamily(),
		rmdirFamily(),
		unlinkFamily(),
		shredFamily(),
		copyMoveFamily(),
		linkFamily(),
		writeOperandsFamily(),
		mktempFamily(),
		truncateFamily(),
		teeFamily(),
		sedFamily(),
		ddFamily(),
		chmodFamily(),
		chownFamily(),
		findFamily(),
		unzipFamily(),
		uniqFamily(),
		sortCmdFamily(),
		base64CmdFamily(),
		mkfsFamily(),
		killFamily(),
		killallFamily(),
		wgetFamily(),
		scpFamily2(),
		socatFamily(),
		mailFamily(),
		sourceFamily(),
		evalCmdFamily(),
		trapCmdFamily(),
		aliasFamily(),
		execCmdFamily(),
		cdFamily(),
		popdFamily(),
		goCmdFamily(),
		bundleFamily(),
		mvnFamily(),
		gradleFamily(),
		dotnetFamily(),
		brewFamily(),
		sqliteFamily(),
		mongoFamily(),
		crontabFamily(),
		atCmdFamily(),
		launchctlFamily(),
		systemctlFamily2(),
		sysctlFamily(),
		systemdRunFamily(),
		sudoeditFamily(),
		printenvFamily(),
		exportCmdFamily(),
		historyCmdFamily(),
		passwordManagerFamily(),
		scriptCmdFamily(),
		patchCmdFamily(),
		openCmdFamily(),
		hashCmdFamily(),
		enableCmdFamily(),
		twineFamily(),
		haltFamily(),
		setCmdFamily(),
		securityFamily(),
		svnFamily(),
		pgCtlFamily(),
		skaffoldFamily(),
		packerFamily(),
		kubeContextFamily(),
		k9sFamily(),
		swaksFamily(),
		miseFamily(),
		tiltFamily(), awsVaultFamily(), kustomizeFamily(),
	}
}
