package risk

import (
	"fmt"
	"strings"
)

// ReasonKind is what a finding found, as a stable identifier the ledger
// keeps and the page and the terminal render words for. The zero value is
// ReasonUnknown: a finding that says nothing is a fault (a test fails on
// it), never a quiet one.
type ReasonKind uint8

// Reason is why a finding holds its class: a kind from a closed set and
// the operands its words need. The words are rendered from the kind's
// entry in one table, only when asked (String), so classifying a step
// builds no sentence.
type Reason struct {
	Kind    ReasonKind
	Program string // the program, as the step names it ("git", "docker compose")
	Verb    string // its subcommand or option, when the kind depends on it ("push", "-rf")
	Object  string // what it acts on: a path, host, ref, key, word or value
	What    string // what the object is, in words from a table ("an ssh key")
}

const (
	ReasonUnknown ReasonKind = iota

	// Worded is a reason made of words alone, its Object the whole
	// sentence: for callers outside the package that compose their own
	// (a symlink's target, what a repository's configuration runs). The
	// classifier never gives one; a test holds it to that.
	Worded

	// What only reads or changes nothing.
	OnlyReads
	PrintsHelp
	ExitsOnError
	ChangesNothing
	DryRun

	// Local work.
	LocalWork
	ChangesRepository
	ChangesProject
	WritesPath
	RunsProject
	ChangesPackages
	ChangesLocalSettings
	ChangesDatabase
	ServesLocally
	ChecksSyntax

	// Work lost.
	DiscardsWork
	DropsHistory
	DeletesUnmerged
	DeletesPath
	Destroys
	WritesOutsideScope

	// What reaches a remote.
	Pushes
	PushesForce
	PushesDelete
	PushesProtected
	Merges
	MergesProtected
	PointsAtNewRemote
	PushesToURL
	ChangesServer
	ReachesHost
	FetchesUntrusted
	ListensEverywhere
	ExposesService
	SendsData
	SendsCredential
	Publishes
	Deploys
	RemovesContainers

	// Transport security off, or a proxy chosen.
	TLSOff
	ProxyChosen
	CAChosen
	PlainHTTP

	// This machine and what runs later.
	RaisesPrivilege
	LeavesSandbox
	ChangesSystem
	SetsSetuid
	ContainerGetsHost
	AgentUnchecked
	RunsLater
	FetchesCodeThatRuns

	// Credentials.
	PrintsCredential
	ReadsCredential
	StoresCredential
	TouchesCredential

	// What pays or drives a browser.
	Pays
	DrivesBrowser

	// What sayso cannot see.
	BuiltAtRunTime
	RunsUnread
	RunsOptionProgram
	RunsSettingProgram
	RunsAlias
	ComposeUnread
	Interactive
	UnknownProgram
	UnknownVerb
	OtherRepository
	HidesWhatRuns
	HidesVerb

	// sayso's own files.
	TouchesProtected
	NamesProtected
	RunsInProtected
	PersonsCommand

	// Paths, with the operation as the verb.
	PathUnknown
	PathPartlyUnknown
	PathProtected
	PathCredential
	PathActsLater
	PathDevice
	PathSystem
	PathHistory
	PathSSH

	// The step's shell and its variables.
	SetsVariables
	SetsVariable
	SetsIndex
	PointsSaysoElsewhere
	StoresSubstitution
	Recurses
	HidesProgram
	TaskNamed
	ProjectCommand
	RunsOutsideProject
	RunsDecoded
	RunsInput
	InputUnreadable

	// What shells, runners, containers and daemons do.
	ChangesFolder
	ShellState
	RunsNextWords
	TransformsText
	WorksInContainer
	InContainer
	FromDaemon
	ProjectScript
	MakeRecipe
	InlineCode
	InlineSecret
	RunsPackageProgram
	SavesDownload
	SignalsProcess
	SignalsEveryProcess
	DeletesWhole
	ProjectCopy

	// The agents' own tools.
	StartsAgent
	AgentOnly
	MCPUnseen
	FetchesTrusted
	ReadsLocalURL

	// Many targets.
	EachInput
	EachInLoop
	EachSecretFound

	numReasonKinds
)

// reasonTable is every kind's identifier and words. The words follow the
// program and verb when the reason has them; {o} stands for the object,
// and a reason whose words do not place it gets it after a colon.
var reasonTable = [numReasonKinds]struct{ id, words string }{
	ReasonUnknown: {"unknown", "gives no reason"},
	Worded:        {"worded", "{o}"},

	OnlyReads:      {"reads-only", "only reads"},
	PrintsHelp:     {"prints-help", "prints help, a manual or a version"},
	ChangesNothing: {"changes-nothing", "runs nothing that changes anything"},
	DryRun:         {"dry-run", "only shows what it would do"},
	ExitsOnError:   {"exits-on-error", "exits at once: {o}"},

	LocalWork:            {"local-work", "does local work"},
	ChangesRepository:    {"changes-repository", "changes the local repository"},
	ChangesProject:       {"changes-project", "changes files in the project"},
	WritesPath:           {"writes-path", "writes {o}"},
	RunsProject:          {"runs-project", "runs the project's own code"},
	ChangesPackages:      {"changes-packages", "installs or changes packages"},
	ChangesLocalSettings: {"changes-local-settings", "changes a local setting"},
	ChangesDatabase:      {"changes-database", "changes a local database"},
	ServesLocally:        {"serves-locally", "talks to, listens on or serves this machine only"},
	ChecksSyntax:         {"checks-syntax", "checks syntax without running"},

	DiscardsWork:       {"discards-work", "discards uncommitted work"},
	DropsHistory:       {"drops-history", "drops history for good"},
	DeletesUnmerged:    {"deletes-unmerged", "deletes work that is not merged"},
	DeletesPath:        {"deletes-path", "deletes {o}, {w}"},
	Destroys:           {"destroys", "deletes what cannot be brought back"},
	WritesOutsideScope: {"writes-outside-scope", "acts outside the project"},

	Pushes:            {"push", "sends commits to a remote"},
	PushesForce:       {"push-force", "overwrites remote history"},
	PushesDelete:      {"push-delete", "deletes remote refs"},
	PushesProtected:   {"push-protected", "updates the protected branch {o}"},
	Merges:            {"merges", "merges a change into a shared branch"},
	MergesProtected:   {"merge-protected", "merges into the protected branch {o}"},
	PointsAtNewRemote: {"new-remote", "points the repository at another remote"},
	PushesToURL:       {"push-url", "pushes to a URL, not a configured remote"},
	ChangesServer:     {"changes-server", "changes something on a server"},
	ReachesHost:       {"reaches-host", "reaches another host"},
	FetchesUntrusted:  {"fetches-untrusted", "fetches from {o}, which is not a trusted host"},
	ListensEverywhere: {"listens-everywhere", "listens on every address: other machines reach it"},
	ExposesService:    {"exposes-service", "lets other machines reach this one"},
	SendsData:         {"sends-data", "sends data to another host"},
	SendsCredential:   {"sends-credential", "sends a credential to another host"},
	Publishes:         {"publishes", "publishes a release, a package or an image"},
	Deploys:           {"deploys", "changes what runs on servers or clusters"},
	RemovesContainers: {"removes-containers", "removes containers, images or volumes"},

	TLSOff:      {"tls-off", "turns certificate checks off"},
	ProxyChosen: {"proxy-chosen", "sends its traffic through a proxy the step chose"},
	CAChosen:    {"ca-chosen", "chooses which certificate authority is trusted"},
	PlainHTTP:   {"plain-http", "fetches packages over plain http"},

	RaisesPrivilege:     {"raises-privilege", "runs with more privilege than the step"},
	LeavesSandbox:       {"leaves-sandbox", "asks to run outside the client's sandbox"},
	ChangesSystem:       {"changes-system", "changes this machine's system, services or network"},
	SetsSetuid:          {"sets-setuid", "sets a setuid or setgid bit"},
	ContainerGetsHost:   {"container-gets-host", "gives the container the host"},
	AgentUnchecked:      {"agent-unchecked", "runs another agent with its permission checks off"},
	RunsLater:           {"runs-later", "changes what a later command runs"},
	FetchesCodeThatRuns: {"fetches-code-that-runs", "fetches code from elsewhere and runs it"},

	PrintsCredential:  {"prints-credential", "prints a secret"},
	ReadsCredential:   {"reads-credential", "reads a credential"},
	StoresCredential:  {"stores-credential", "stores or changes a credential"},
	TouchesCredential: {"touches-credential", "reaches a credential"},

	Pays:          {"pays", "may charge or pay"},
	DrivesBrowser: {"drives-browser", "drives a browser"},

	BuiltAtRunTime:     {"built-at-run-time", "uses a name built at run time"},
	RunsUnread:         {"runs-unread", "runs code sayso does not read"},
	RunsOptionProgram:  {"runs-option-program", "runs a program an option names"},
	RunsSettingProgram: {"runs-setting-program", "runs a program the setting {o} names"},
	ComposeUnread:      {"compose-unread", "compose: sayso did not read {o}, which says what the containers get"},
	RunsAlias:          {"runs-alias", "runs an alias this step defines"},
	Interactive:        {"interactive", "opens a session whose commands sayso cannot see"},
	UnknownProgram:     {"unknown-program", "is a program sayso does not know"},
	UnknownVerb:        {"unknown-verb", "is not a subcommand sayso knows"},
	OtherRepository:    {"other-repository", "uses a repository outside the project, whose configuration can run programs"},
	HidesWhatRuns:      {"hides-what-runs", "hides what runs"},
	HidesVerb:          {"hides-verb", "hides its subcommand behind quoting"},

	TouchesProtected: {"protected-path", "touches sayso's own files"},
	NamesProtected:   {"names-protected", "names sayso's own files"},
	RunsInProtected:  {"runs-in-protected", "runs inside sayso's own folder {o}"},
	PersonsCommand:   {"persons-command", "is the person's to run, not an agent's"},

	PathUnknown:       {"path-unknown", "{v}s a path sayso cannot know before it runs"},
	PathPartlyUnknown: {"path-partly-unknown", "{v}s a path that may hold what sayso cannot know"},
	PathProtected:     {"path-protected", "{v}s sayso's own files"},
	PathCredential:    {"path-credential", "{v}s {w}"},
	PathActsLater:     {"path-acts-later", "{v}s {w}, which acts later"},
	PathDevice:        {"path-device", "{v}s {w}"},
	PathSystem:        {"path-system", "{v}s a system file"},
	PathHistory:       {"path-history", "{v}s shell history"},
	PathSSH:           {"path-ssh", "{v}s ssh configuration"},

	SetsVariables:        {"sets-variables", "sets variables only"},
	SetsVariable:         {"sets-variable", "sets {o}, which changes what later programs run or load"},
	SetsIndex:            {"sets-index", "sets {o}: packages come from another index or unchecked, and installing runs their code"},
	PointsSaysoElsewhere: {"points-sayso-elsewhere", "points sayso at other settings"},
	StoresSubstitution:   {"stores-substitution", "stores text holding a command substitution that a later expansion may run"},
	Recurses:             {"recurses", "is a function that calls itself"},
	HidesProgram:         {"hides-program", "hides the program's name behind quoting"},
	TaskNamed:            {"task-named", "runs a task named {o}"},
	ProjectCommand:       {"project-command", "is the project's own command, declared in {o}"},
	RunsOutsideProject:   {"runs-outside-project", "runs a program outside the project"},
	RunsDecoded:          {"runs-decoded", "runs code decoded from its input"},
	RunsInput:            {"runs-input", "runs code from its input, which sayso cannot see"},
	InputUnreadable:      {"input-unreadable", "gives input sayso cannot read"},

	ChangesFolder:       {"changes-folder", "changes the working folder"},
	ShellState:          {"shell-state", "changes only the shell's own state"},
	RunsNextWords:       {"runs-next-words", "runs the command read after it"},
	TransformsText:      {"transforms-text", "transforms text from its input or its files"},
	WorksInContainer:    {"works-in-container", "starts, stops or works in a container"},
	InContainer:         {"in-container", "runs in the container, outside the wall: {o}"},
	FromDaemon:          {"from-daemon", "runs it later from a daemon, outside the wall: {o}"},
	ProjectScript:       {"project-script", "runs the project's script {w}: {o}"},
	MakeRecipe:          {"make-recipe", "runs the Makefile's {w}: {o}"},
	InlineCode:          {"inline-code", "runs inline code, the project's code inside the wall"},
	InlineSecret:        {"inline-secret", "its inline code reaches {w}"},
	RunsPackageProgram:  {"runs-package-program", "runs a package's program, which it may download"},
	SavesDownload:       {"saves-download", "saves the download"},
	SignalsProcess:      {"signals-process", "signals or stops processes"},
	SignalsEveryProcess: {"signals-every-process", "signals every process"},
	DeletesWhole:        {"deletes-whole", "deletes {w} whole, which no undo brings back"},
	ProjectCopy:         {"project-copy", "runs the project's own copy of the program"},

	StartsAgent:    {"starts-agent", "starts a sub-agent"},
	AgentOnly:      {"agent-only", "changes nothing outside the agent"},
	MCPUnseen:      {"mcp-unseen", "is an MCP tool: sayso cannot see what it does"},
	FetchesTrusted: {"fetches-trusted", "fetches from {o}, a trusted host"},
	ReadsLocalURL:  {"reads-local-url", "reads a local file by URL"},

	EachInput:       {"each-input", "runs once per input item"},
	EachInLoop:      {"each-in-loop", "runs in a loop over many targets"},
	EachSecretFound: {"each-secret-found", "runs on the secret files a search finds"},
}

// Words is a reason made of words alone (Worded).
func Words(s string) Reason { return Reason{Kind: Worded, Object: s} }

// By returns a reason of kind k, with its operands.
func (k ReasonKind) By(program, verb, object string) Reason {
	return Reason{Kind: k, Program: program, Verb: verb, Object: object}
}

// String is the reason's stable identifier.
func (k ReasonKind) String() string {
	if k < numReasonKinds {
		return reasonTable[k].id
	}
	return fmt.Sprintf("reason(%d)", uint8(k))
}

// MarshalText implements encoding.TextMarshaler.
func (k ReasonKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; unknown text is an
// error.
func (k *ReasonKind) UnmarshalText(b []byte) error { return unmarshalText(k, b, ParseReasonKind) }

// ParseReasonKind returns the kind named s.
func ParseReasonKind(s string) (ReasonKind, error) {
	for i, e := range reasonTable {
		if e.id == s {
			return ReasonKind(i), nil
		}
	}
	return ReasonUnknown, fmt.Errorf("unknown reason %q", s)
}

// String renders the reason's words from its kind's entry: the program
// and verb, then the words with the object in its place. Words that place
// the verb themselves ({v}, as in "{v}s a system file") take it there;
// {w} stands for What.
func (r Reason) String() string {
	words := reasonTable[ReasonUnknown].words
	if r.Kind < numReasonKinds {
		words = reasonTable[r.Kind].words
	}
	if r.Object == "" {
		// An object left empty drops its place: "updates the protected
		// branch {o}" reads "updates the protected branch".
		words = strings.Replace(words, " {o}", "", 1)
	}
	if r.What == "" {
		words = strings.Replace(words, ", {w}", "", 1)
	}
	verbPlaced := strings.Contains(words, "{v}")
	var b strings.Builder
	b.WriteString(strings.TrimSpace(r.Program))
	if verb := strings.TrimSpace(r.Verb); verb != "" && !verbPlaced {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(verb)
	}
	if b.Len() > 0 && words != "" {
		b.WriteByte(' ')
	}
	placed := false
	for words != "" {
		i := strings.IndexByte(words, '{')
		if i < 0 || len(words) < i+3 || words[i+2] != '}' {
			b.WriteString(words)
			break
		}
		b.WriteString(words[:i])
		switch words[i+1] {
		case 'o':
			b.WriteString(r.Object)
			placed = true
		case 'v':
			b.WriteString(r.Verb)
		case 'w':
			b.WriteString(r.What)
		default:
			b.WriteString(words[i : i+3])
		}
		words = words[i+3:]
	}
	if !placed && r.Object != "" {
		b.WriteString(": ")
		b.WriteString(r.Object)
	}
	return b.String()
}
