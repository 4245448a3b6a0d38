// Database and queue clients: what their SQL and commands change, and where they connect.

package risk

import (
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// redisFamily: redis-cli and valkey-cli, whose modes (--pipe, --eval, -x)
// are read before the command.
func redisFamily() family {
	return family{names: []string{"redis-cli", "valkey-cli"}, before: redisModes, classify: redisCli}
}

func sqlClientFamily() family {
	return family{names: []string{"pgcli", "mycli", "litecli", "usql", "psql", "mysql", "mariadb", "clickhouse-client", "cockroach"}, classify: sqlClient}
}

// sqlClient reads the SQL it is given and classifies the statements.
func sqlClient(c *cmd) {
	var sql []string
	local := c.name == "sqlite3" || c.name == "duckdb"
	var pos []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case v == "-c" || v == "--command" || v == "-e" || v == "--execute" || v == "-cmd" || v == "--query" || v == "-q" && c.name == "clickhouse-client":
			if i+1 < len(c.args) {
				i++
				if !c.args[i].Literal {
					c.add(Opaque, BuiltAtRunTime.By(c.name, "", ""))
				}
				sql = append(sql, c.args[i].Value)
			}
		case strings.HasPrefix(v, "--command=") || strings.HasPrefix(v, "--execute=") || strings.HasPrefix(v, "--query="):
			_, q, _ := strings.Cut(v, "=")
			sql = append(sql, q)
		case v == "-f" || v == "--file" || v == "-init" || v == "--init-command":
			if i+1 < len(c.args) {
				i++
			}
			c.add(Opaque, RunsUnread.By(c.name, "", ""))
		case v == "-l" || v == "--list" || v == "--version" || v == "-V" || v == "--help":
			c.add(Read, OnlyReads.By(c.name, v, ""))
			return
		case strings.HasPrefix(v, "-e") && len(v) > 2 && (c.name == "mysql" || c.name == "mariadb"):
			sql = append(sql, v[2:])
		case strings.HasPrefix(v, "-c") && len(v) > 2 && c.name == "psql":
			sql = append(sql, v[2:])
		case strings.HasPrefix(v, "-"):
			if len(v) == 2 && strings.Contains("hpUdDuPWSo", v[1:]) && c.name != "sqlite3" && i+1 < len(c.args) {
				i++
			}
		default:
			pos = append(pos, w)
		}
	}
	if local && len(pos) >= 1 {
		c.path(OpRead, pos[0])
	}
	if local && len(pos) >= 2 {
		for _, w := range pos[1:] {
			sql = append(sql, w.Value)
		}
	}
	sql, ok := c.sqlInput(sql, false)
	if !ok {
		return
	}
	for _, q := range sql {
		c.sql(q, local)
		if c.name == "psql" {
			c.psqlMeta(q)
		}
	}
}

func (c *cmd) sql(q string, local bool) {
	u := strings.ToUpper(q)
	has := func(kw string) bool { return containsKeyword(u, kw) }
	switch {
	case strings.Contains(q, `\!`) || strings.Contains(u, ".SHELL") || strings.Contains(u, ".SYSTEM") || strings.Contains(u, "TO PROGRAM") || strings.Contains(u, "FROM PROGRAM") || has("SYSTEM") && !local && !has("SELECT"):
		c.add(Opaque, RunsUnread.By(c.name, "SQL", ""))
	}
	switch {
	case dropsDatabase(u) && !local:
		c.lasting(Reason{Kind: DeletesWhole, Program: c.name, Verb: "SQL", What: "a database"})
	case has("DROP") || has("TRUNCATE") || has("DELETE"):
		c.add(Destructive, Destroys.By(c.name, "SQL", ""))
	case has("INSERT") || has("UPDATE") || has("CREATE") || has("ALTER") || has("GRANT") || has("REVOKE") || has("COPY") ||
		has("MERGE") || has("REPLACE") || has("UPSERT") || has("CALL") || has("VACUUM") || has("REINDEX") || has("ATTACH") || has("IMPORT") || u == ".IMPORT":
		if local {
			c.add(LocalWrite, ChangesDatabase.By(c.name, "SQL", ""))
			return
		}
		c.add(RemoteWrite, ChangesServer.By(c.name, "SQL", ""))
	default:
		c.add(Read, OnlyReads.By(c.name, "SQL", ""))
	}
}

// dropsDatabase reports whether upper-cased SQL drops a database (DROP
// DATABASE, or DROP SCHEMA, MySQL's other name for it).
func dropsDatabase(u string) bool {
	f := strings.Fields(u)
	for i := 0; i+1 < len(f); i++ {
		if strings.TrimLeft(f[i], "(;") == "DROP" && (f[i+1] == "DATABASE" || f[i+1] == "SCHEMA") {
			return true
		}
	}
	return false
}

// containsKeyword reports whether kw appears in u as a whole word.
func containsKeyword(u, kw string) bool {
	for i := 0; ; {
		j := strings.Index(u[i:], kw)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordByte(u[j-1])
		after := j+len(kw) >= len(u) || !isWordByte(u[j+len(kw)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

func redisCli(c *cmd) {
	var words []string
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].Value
		if strings.HasPrefix(v, "-") {
			if len(v) == 2 && strings.Contains("hpanu", v[1:]) {
				i++
			}
			continue
		}
		words = append(words, strings.ToUpper(v))
	}
	if len(words) == 0 {
		c.add(Opaque, Interactive.By("redis-cli", "", ""))
		return
	}
	switch words[0] {
	case "FLUSHALL", "FLUSHDB", "DEL", "UNLINK", "SHUTDOWN", "DEBUG", "SWAPDB", "SCRIPT", "EVAL", "EVALSHA", "FUNCTION", "MODULE":
		c.add(Destructive, Destroys.By("redis-cli", words[0], ""))
	case "CONFIG":
		if len(words) > 1 && words[1] == "GET" {
			c.add(Read, OnlyReads.By("redis-cli", "CONFIG GET", ""))
			return
		}
		c.add(Destructive, ChangesServer.By("redis-cli", "CONFIG", ""))
	case "GET", "MGET", "KEYS", "SCAN", "INFO", "PING", "TTL", "PTTL", "TYPE", "EXISTS", "HGET", "HGETALL", "LRANGE", "SMEMBERS", "ZRANGE", "DBSIZE", "MONITOR", "SLOWLOG", "CLIENT", "MEMORY", "STRLEN", "LLEN", "HLEN", "SCARD", "ZCARD", "XRANGE", "XLEN", "HKEYS":
		c.add(Read, OnlyReads.By("redis-cli", words[0], ""))
	default:
		c.add(RemoteWrite, ChangesServer.By("redis-cli", words[0], ""))
	}
}

func mongoFamily() family {
	return family{names: []string{"mongosh", "mongo"}, classify: mongo}
}

func mongo(c *cmd) {
	for i, w := range c.args {
		if w.Value == "--eval" && i+1 < len(c.args) {
			c.add(Opaque, RunsUnread.By(c.name, "--eval", ""))
			return
		}
	}
	c.add(Opaque, Interactive.By(c.name, "", ""))
}

// dbHost is the host a database client names (-h, --host), or "".
func (c *cmd) dbHost() string {
	for i, w := range c.args {
		v := w.Value
		switch {
		case (v == "-h" || v == "--host" || v == "-H") && i+1 < len(c.args):
			return c.args[i+1].Value
		case strings.HasPrefix(v, "--host="):
			return strings.TrimPrefix(v, "--host=")
		case strings.HasPrefix(v, "-h") && len(v) > 2:
			return v[2:]
		case strings.HasPrefix(v, "postgres://") || strings.HasPrefix(v, "postgresql://") || strings.HasPrefix(v, "mongodb://") ||
			strings.HasPrefix(v, "mongodb+srv://") || strings.HasPrefix(v, "mysql://") || strings.HasPrefix(v, "--uri=") || strings.HasPrefix(v, "--url="):
			return v
		}
	}
	return ""
}

func localHost(h string) bool {
	return h == "" || h == "localhost" || h == "127.0.0.1" || h == "::1" || strings.HasPrefix(h, "/") ||
		strings.Contains(h, "@localhost") || strings.Contains(h, "@127.0.0.1") || strings.Contains(h, "//localhost") || strings.Contains(h, "//127.0.0.1")
}

func pgAdminFamily() family {
	return family{names: []string{"createdb", "createuser", "dropdb", "dropuser"}, classify: pgAdmin}
}

func pgAdmin(c *cmd) {
	switch c.name {
	case "dropdb", "dropuser":
		if c.has("--help", "--version", "-V", "-?") {
			c.add(Read, OnlyReads.By(c.name, "", ""))
			return
		}
		if c.name == "dropdb" {
			c.lasting(Reason{Kind: DeletesWhole, Program: "dropdb", Verb: "", Object: strings.Join(shell.Words(c.operands()), " "), What: "a database"})
			return
		}
		c.add(Destructive, Destroys.By(c.name, "", strings.Join(shell.Words(c.operands()), " ")))
	default:
		if !localHost(c.dbHost()) {
			c.add(RemoteWrite, ChangesServer.By(c.name, "", ""))
			return
		}
		c.add(LocalWrite, ChangesDatabase.By(c.name, "", ""))
	}
}

func dumpDBFamily() family {
	return family{names: []string{"pg_dump", "pg_dumpall", "mysqldump", "mongodump", "mongoexport"}, classify: dumpDB}
}

// dumpDB reads a database and writes the dump where it is told.
func dumpDB(c *cmd) {
	c.add(Read, OnlyReads.By(c.name, "", ""))
	for i, w := range c.args {
		v := w.Value
		switch {
		case (v == "-f" || v == "--file" || v == "-o" || v == "--out" || v == "--result-file" || v == "-r") && i+1 < len(c.args):
			c.write(c.args[i+1])
		case strings.HasPrefix(v, "--file=") || strings.HasPrefix(v, "--out=") || strings.HasPrefix(v, "--result-file="):
			_, p, _ := strings.Cut(v, "=")
			c.write(shell.Word{Raw: p, Value: p, Literal: true})
		}
	}
}

func restoreDBFamily() family {
	return family{names: []string{"pg_restore", "mongorestore", "mongoimport"}, classify: restoreDB}
}

// restoreDB writes a dump into a database: with --drop or --clean it
// first drops what is there.
func restoreDB(c *cmd) {
	if c.has("--drop", "--clean", "-c", "--if-exists") || c.name == "pg_restore" && c.shortFlag('c') {
		c.add(Destructive, Destroys.By(c.name, "", ""))
		return
	}
	if !localHost(c.dbHost()) {
		c.add(RemoteWrite, ChangesServer.By(c.name, "", ""))
		return
	}
	c.add(LocalWrite, ChangesProject.By(c.name, "", ""))
}

func pgCtlFamily() family { return family{names: []string{"pg_ctl"}, classify: pgCtl} }

func pgCtl(c *cmd) {
	switch v := c.verb(); v {
	case "status", "--version", "":
		c.add(Read, OnlyReads.By("pg_ctl", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("pg_ctl", v, ""))
	}
}

// mysqladminCommands are mysqladmin's commands (mysqladmin --help); it
// runs one named by any unique prefix of it (mysqladmin proc stat).
var mysqladminCommands = []string{"create", "debug", "drop", "extended-status", "flush-hosts", "flush-logs",
	"flush-privileges", "flush-status", "flush-tables", "flush-threads", "kill", "old-password", "password", "ping",
	"processlist", "purge", "refresh", "reload", "shutdown", "start-replica", "start-slave", "status",
	"stop-replica", "stop-slave", "variables", "version"}

// mysqladminCommand is the command v names: itself, or the one command it
// is a prefix of; "" when it names none (an argument, as the name after
// create, or a word mysqladmin refuses).
func mysqladminCommand(v string) string {
	if slices.Contains(mysqladminCommands, v) || strings.HasPrefix(v, "flush") {
		return v
	}
	found := ""
	for _, name := range mysqladminCommands {
		if strings.HasPrefix(name, v) {
			if found != "" {
				return ""
			}
			found = name
		}
	}
	return found
}

func mysqladminFamily() family {
	return family{names: []string{"mysqladmin"}, classify: mysqladmin}
}

func mysqladmin(c *cmd) {
	named := false
	for _, w := range c.operands() {
		if !w.Literal {
			c.add(Opaque, UnknownVerb.By("mysqladmin", w.Raw, ""))
			return
		}
		v := mysqladminCommand(strings.ToLower(w.Value))
		named = named || v != ""
		switch {
		case v == "drop":
			c.lasting(Reason{Kind: DeletesWhole, Program: "mysqladmin", Verb: "drop", What: "a database"})
		case v == "shutdown" || v == "kill" || v == "purge":
			c.add(Destructive, Destroys.By("mysqladmin", v, ""))
		case v == "password" || v == "old-password":
			c.add(Secret, TouchesCredential.By("mysqladmin", v, ""))
		case v == "create" || v == "debug" || strings.HasPrefix(v, "flush") || strings.HasPrefix(v, "refresh") || v == "reload" || strings.HasPrefix(v, "start") || strings.HasPrefix(v, "stop"):
			if localHost(c.dbHost()) {
				c.add(LocalWrite, LocalWork.By("mysqladmin", v, ""))
			} else {
				c.add(RemoteWrite, ChangesServer.By("mysqladmin", v, ""))
			}
		}
	}
	if !named && len(c.operands()) > 0 {
		// Only words that are none of mysqladmin's.
		c.add(Opaque, UnknownVerb.By("mysqladmin", c.written(1), ""))
		return
	}
	if c.a.segClasses(c.i).Empty() {
		c.add(Read, OnlyReads.By("mysqladmin", "", ""))
	}
}

func etcdctlFamily() family {
	return family{names: []string{"etcdctl"}, classify: etcdctl}
}

func etcdctl(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "get", "watch", "endpoint", "member", "alarm", "version", "check", "":
		if (ws[0] == "endpoint" || ws[0] == "member" || ws[0] == "alarm" || ws[0] == "check") && !c.literalWords(2) {
			c.add(Opaque, UnknownVerb.By("etcdctl", c.written(2), ""))
			return
		}
		if ws[0] == "member" && (ws[1] == "add" || ws[1] == "remove" || ws[1] == "update" || ws[1] == "promote") ||
			ws[0] == "alarm" && ws[1] == "disarm" {
			c.add(Deploy, Deploys.By("etcdctl", ws[0]+" "+ws[1], ""))
			return
		}
		if ws[0] == "check" && (ws[1] == "perf" || ws[1] == "datascale") {
			// Both put keys to the cluster to measure it (etcdctl check --help).
			c.add(RemoteWrite, ChangesServer.By("etcdctl", "check "+ws[1], ""))
			return
		}
		if ws[0] == "endpoint" && !slices.Contains([]string{"health", "status", "hashkv", ""}, ws[1]) ||
			(ws[0] == "member" || ws[0] == "alarm") && ws[1] != "list" && ws[1] != "" || ws[0] == "check" && ws[1] != "" {
			c.add(Opaque, UnknownVerb.By("etcdctl "+ws[0], ws[1], ""))
			return
		}
		if ws[0] == "get" || ws[0] == "watch" {
			if r := etcdSecrets(c); r.Kind != ReasonUnknown {
				r.Verb = ws[0]
				c.add(Secret, r)
				return
			}
		}
		c.add(Read, OnlyReads.By("etcdctl", ws[0], ""))
	case "del", "delete", "compaction", "defrag", "lease":
		if ws[0] == "lease" && ws[1] != "revoke" {
			c.add(RemoteWrite, ChangesServer.By("etcdctl lease", ws[1], ""))
			return
		}
		c.add(Destructive, Destroys.By("etcdctl", ws[0], ""))
	case "snapshot":
		if ws[1] == "save" || ws[1] == "status" {
			c.add(Read, OnlyReads.By("etcdctl snapshot", ws[1], ""))
			return
		}
		c.add(Destructive, Destroys.By("etcdctl snapshot", ws[1], ""))
	case "user", "role", "auth":
		if ws[1] == "get" || ws[1] == "list" {
			c.add(Read, OnlyReads.By("etcdctl", ws[0]+" "+ws[1], ""))
			return
		}
		c.add(Privilege, RaisesPrivilege.By("etcdctl", ws[0]+" "+ws[1], ""))
	default:
		c.add(RemoteWrite, ChangesServer.By("etcdctl", ws[0], ""))
	}
}

// etcdSecrets says why an etcdctl get reaches Kubernetes' Secrets, the zero Reason
// when it does not: the API server keeps them under /registry/secrets/, so a
// key there, or a --prefix or --from-key range that covers it, prints
// them. Other keys hold what their owner put there: read.
func etcdSecrets(c *cmd) Reason {
	ops := c.operands()
	if len(ops) < 2 || c.has("--keys-only", "--count-only") {
		return Reason{}
	}
	k := ops[1]
	if !k.Literal {
		return ReadsCredential.By("etcdctl", "", k.Raw)
	}
	const reg = "/registry/secrets"
	switch {
	case strings.HasPrefix(k.Value, reg):
		return PrintsCredential.By("etcdctl", "", k.Value)
	case c.has("--prefix") && strings.HasPrefix(reg, k.Value), c.has("--from-key") && k.Value <= reg:
		return PrintsCredential.By("etcdctl", "", k.Value)
	}
	return Reason{}
}

func kafkaTopicsFamily() family {
	return family{names: []string{"kafka-topics.sh", "kafka-topics"}, classify: kafkaTopics}
}

func kafkaTopics(c *cmd) {
	switch {
	case c.has("--delete"):
		c.add(Destructive, Destroys.By(c.name, "--delete", ""))
	case c.has("--create", "--alter"):
		c.add(RemoteWrite, ChangesServer.By(c.name, "", ""))
	default:
		c.add(Read, OnlyReads.By(c.name, "", ""))
	}
}

func kafkaProducer(c *cmd) {
	c.add(RemoteWrite, ChangesServer.By(c.name, "", ""))
	for _, r := range c.seg.Redirs {
		if r.Reads() {
			c.add(Exfil, SendsData.By(c.name, "", ""))
		}
	}
}

func kafkaProducerFamily() family {
	return family{names: []string{"kafka-console-producer", "kafka-console-producer.sh"}, classify: kafkaProducer}
}

func kafkaGroupsFamily() family {
	return family{names: []string{"kafka-consumer-groups.sh", "kafka-consumer-groups"}, classify: kafkaGroups}
}

func kafkaGroups(c *cmd) {
	switch {
	case c.has("--delete", "--delete-offsets"):
		c.add(Destructive, Destroys.By(c.name, "", ""))
	case c.has("--reset-offsets") && c.has("--execute"):
		c.add(Destructive, Destroys.By(c.name, "--reset-offsets --execute", ""))
	default:
		c.add(Read, OnlyReads.By(c.name, "", ""))
	}
}

func rabbitmq(c *cmd) {
	v := strings.ToLower(c.verb())
	switch {
	case strings.HasPrefix(v, "list") || v == "status" || v == "show" || v == "cluster_status" || v == "environment" || v == "report" || v == "ping" || v == "":
		c.add(Read, OnlyReads.By(c.name, v, ""))
	case strings.HasPrefix(v, "delete") || strings.HasPrefix(v, "purge") || strings.HasPrefix(v, "close") || v == "reset" || v == "force_reset" ||
		v == "stop" || v == "stop_app" || v == "forget_cluster_node" || v == "shutdown":
		c.add(Destructive, Destroys.By(c.name, v, ""))
	case strings.Contains(v, "user") || strings.Contains(v, "permission"):
		c.add(Privilege, RaisesPrivilege.By(c.name, v, ""))
	default:
		c.add(RemoteWrite, ChangesServer.By(c.name, v, ""))
	}
}

func rabbitmqFamily() family {
	return family{names: []string{"rabbitmqctl", "rabbitmqadmin"}, classify: rabbitmq}
}

func natsFamily() family {
	return family{names: []string{"nats"}, classify: nats}
}

func nats(c *cmd) {
	ws := c.words(2)
	if !c.literalWords(2) && !slices.Contains(natsReadCommands, ws[0]) {
		c.add(Opaque, UnknownVerb.By("nats", c.written(2), ""))
		return
	}
	switch {
	case ws[0] == "pub" || ws[0] == "publish" || ws[0] == "req" || ws[0] == "request":
		c.add(RemoteWrite, ChangesServer.By("nats", ws[0], ""))
	case ws[1] == "rm" || ws[1] == "del" || ws[1] == "purge" || ws[1] == "delete":
		c.add(Destructive, Destroys.By("nats", ws[0]+" "+ws[1], ""))
	case ws[1] == "add" || ws[1] == "put" || ws[1] == "edit" || ws[1] == "create" || ws[1] == "update" || ws[1] == "restore" ||
		ws[0] == "consumer" && ws[1] == "next":
		c.add(RemoteWrite, ChangesServer.By("nats", ws[0]+" "+ws[1], ""))
	case slices.Contains(natsReadCommands, ws[0]) ||
		slices.Contains([]string{"ls", "list", "info", "report", "view", "get", "subjects", "history", "status", "watch", "find", "ping", "check", "show", ""}, ws[1]):
		c.add(Read, OnlyReads.By("nats", ws[0]+" "+ws[1], ""))
	case ws[0] == "context" && (ws[1] == "select" || ws[1] == "save" || ws[1] == "copy"):
		c.add(LocalWrite, ChangesLocalSettings.By("nats", "context "+ws[1], ""))
	default:
		c.add(Opaque, UnknownVerb.By("nats", ws[0]+" "+ws[1], ""))
	}
}

// natsReadCommands are nats's commands that only read, whose next word is
// an argument: a subject, a server.
var natsReadCommands = []string{"sub", "subscribe", "rtt", "latency", "events", "errors", "schema", "cheat", "completion", "help", "--version", ""}

func consulFamily() family {
	return family{names: []string{"consul"}, classify: consul}
}

// consul reads the command from its first word and, for a group of
// commands (consul kv get), the next; acl, operator and connect hold
// groups of their own (consul acl token delete, consul operator raft
// list-peers), whose command is the third word.
func consul(c *cmd) {
	ws := c.words(3)
	n := 1
	switch ws[0] {
	case "acl", "operator", "connect":
		n = 3
		if ws[1] == "bootstrap" || ws[1] == "set-agent-token" || ws[1] == "usage" && ws[0] == "operator" {
			n = 2
		}
	case "catalog", "config", "intention", "kv", "peering", "services", "snapshot", "tls", "resource", "namespace", "partition":
		n = 2
	}
	if !c.literalWords(n) {
		c.add(Opaque, UnknownVerb.By("consul", c.written(n), ""))
		return
	}
	verb := ws[n-1]
	where := strings.Join(ws[:n], " ")
	switch {
	case verb == "delete" || ws[0] == "leave" || ws[0] == "force-leave" || verb == "deregister" || verb == "remove-peer" ||
		ws[0] == "snapshot" && verb == "restore":
		c.add(Destructive, Destroys.By("consul", where, ""))
	case verb == "put" || verb == "import" || verb == "register" || verb == "create" || verb == "update" || verb == "write" ||
		verb == "set-config" || verb == "transfer-leader" || verb == "join" || verb == "establish" || verb == "generate-token" ||
		verb == "apply" || verb == "bootstrap" || verb == "set-agent-token" || ws[0] == "event" || ws[0] == "maint" || ws[0] == "reload":
		c.add(RemoteWrite, ChangesServer.By("consul", where, ""))
	case ws[0] == "agent" || ws[0] == "exec" || ws[0] == "watch" || ws[0] == "lock" || ws[0] == "connect":
		c.add(Opaque, RunsUnread.By("consul", ws[0], ""))
	case ws[0] == "snapshot" && verb == "save", ws[0] == "debug", ws[0] == "tls":
		c.add(LocalWrite, LocalWork.By("consul", where, ""))
	case n == 1 && slices.Contains([]string{"info", "members", "monitor", "rtt", "version", "validate", "troubleshoot", "keygen", "keyring", "help", "--version", ""}, verb),
		n > 1 && slices.Contains([]string{"get", "list", "read", "export", "inspect", "check", "match", "list-peers", "get-config", "state",
			"instances", "datacenters", "nodes", "services", "members", ""}, verb):
		if ws[0] == "keyring" && c.has("-install", "-use", "-remove") {
			c.add(RemoteWrite, ChangesServer.By("consul", "keyring", ""))
			return
		}
		c.add(Read, OnlyReads.By("consul", where, ""))
	default:
		c.add(Opaque, UnknownVerb.By("consul", where, ""))
	}
}

// flyway runs each of its operands as a command (flyway --help).
func flyway(c *cmd) {
	for _, w := range c.operands() {
		if !w.Literal {
			c.add(Opaque, UnknownVerb.By("flyway", w.Raw, ""))
			continue
		}
		switch v := w.Value; v {
		case "clean":
			c.add(Destructive, Destroys.By("flyway", "clean", ""))
		case "migrate", "baseline", "repair", "undo", "deploy":
			c.add(RemoteWrite, ChangesServer.By("flyway", v, ""))
		case "snapshot", "diff", "diffText", "generate", "model", "prepare", "init-project":
			c.add(LocalWrite, LocalWork.By("flyway", v, ""))
		case "info", "validate", "check", "version", "help":
			c.add(Read, OnlyReads.By("flyway", v, ""))
		default:
			c.add(Opaque, UnknownVerb.By("flyway", v, ""))
		}
	}
	if c.a.segClasses(c.i).Empty() {
		c.add(Read, OnlyReads.By("flyway", "", ""))
	}
}

func flywayFamily() family {
	return family{names: []string{"flyway"}, classify: flyway}
}

func liquibaseFamily() family {
	return family{names: []string{"liquibase"}, classify: liquibase}
}

func liquibase(c *cmd) {
	for _, w := range c.operands() {
		v := strings.ToLower(w.Value)
		switch {
		case strings.HasPrefix(v, "drop") || strings.HasPrefix(v, "rollback"):
			c.add(Destructive, Destroys.By("liquibase", w.Value, ""))
		case strings.HasPrefix(v, "update") || v == "tag" || strings.HasPrefix(v, "changelog-sync") || strings.HasPrefix(v, "changelogsync") || v == "execute-sql" || v == "release-locks" ||
			strings.ReplaceAll(v, "-", "") == "clearchecksums" || strings.ReplaceAll(v, "-", "") == "marknextchangesetran" || v == "executesql" || v == "releaselocks":
			c.add(RemoteWrite, ChangesServer.By("liquibase", w.Value, ""))
		}
	}
	if !c.a.segClasses(c.i).Empty() {
		return
	}
	// The first operand is the command (liquibase --help), written in
	// kebab case or, before 4.4, in camel case.
	ops := c.operands()
	if len(ops) == 0 {
		c.add(Read, OnlyReads.By("liquibase", "", ""))
		return
	}
	if !ops[0].Literal {
		c.add(Opaque, UnknownVerb.By("liquibase", ops[0].Raw, ""))
		return
	}
	switch v := ops[0].Value; strings.ReplaceAll(strings.ToLower(v), "-", "") {
	case "status", "history", "validate", "diff", "snapshot", "snapshotreference", "tagexists", "listlocks",
		"unexpectedchangesets", "calculatechecksum", "connect", "dbclhistory", "help", "version":
		c.add(Read, OnlyReads.By("liquibase", v, ""))
	case "generatechangelog", "diffchangelog", "dbdoc", "init", "setcontexts", "setlabels":
		c.add(LocalWrite, LocalWork.By("liquibase", v, ""))
	default:
		c.add(Opaque, UnknownVerb.By("liquibase", v, ""))
	}
}

func prismaFamily() family {
	return family{names: []string{"prisma"}, classify: prisma}
}

// prisma: migrate dev and db push change the development database; reset,
// --force-reset and --accept-data-loss drop data; migrate deploy applies
// migrations to the database the environment names.
func prisma(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "migrate" && ws[1] == "reset", c.has("--force-reset", "--accept-data-loss"):
		c.add(Destructive, Destroys.By("prisma", ws[0]+" "+ws[1], ""))
	case ws[0] == "migrate" && (ws[1] == "deploy" || ws[1] == "resolve"):
		c.add(Deploy, Deploys.By("prisma migrate", ws[1], ""))
	case ws[0] == "db" && ws[1] == "execute":
		c.add(Opaque, RunsUnread.By("prisma", "db execute", ""))
	case ws[0] == "migrate" && (ws[1] == "status" || ws[1] == "diff"), ws[0] == "validate", ws[0] == "version", ws[0] == "-v", ws[0] == "--version", ws[0] == "help":
		c.add(Read, OnlyReads.By("prisma", ws[0], ""))
	case ws[0] == "studio":
		c.add(LocalWrite, LocalWork.By("prisma", "studio", ""))
	default:
		c.add(LocalWrite, LocalWork.By("prisma", strings.TrimSpace(ws[0]+" "+ws[1]), ""))
		c.cwdWrite()
	}
}

func dbmateFamily() family {
	return family{names: []string{"dbmate"}, classify: dbmate}
}

func dbmate(c *cmd) {
	switch v := c.verb(); v {
	case "drop", "rollback", "down":
		c.add(Destructive, Destroys.By("dbmate", v, ""))
	case "status", "--version", "help", "":
		c.add(Read, OnlyReads.By("dbmate", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("dbmate", v, ""))
		c.cwdWrite()
	}
}

func sqitch(c *cmd) {
	switch v := c.verb(); v {
	case "revert", "rebase":
		c.add(Destructive, Destroys.By("sqitch", v, ""))
	case "deploy":
		c.add(RemoteWrite, ChangesServer.By("sqitch", "deploy", ""))
	case "status", "log", "plan", "show", "verify", "help", "":
		c.add(Read, OnlyReads.By("sqitch", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("sqitch", v, ""))
	}
}

func sqitchFamily() family {
	return family{names: []string{"sqitch"}, classify: sqitch}
}

// migrationUndo are, per migration tool and framework, the commands that
// drop a database, empty it or undo its migrations: each loses data.
var migrationUndo = map[string][]string{
	"goose":        {"reset", "down", "down-to"},
	"migrate":      {"drop", "down"},
	"atlas":        {"clean", "down"},
	"alembic":      {"downgrade"},
	"knex":         {"migrate:rollback", "migrate:down"},
	"sequelize":    {"db:drop", "db:migrate:undo", "db:migrate:undo:all", "db:seed:undo", "db:seed:undo:all"},
	"typeorm":      {"schema:drop", "migration:revert"},
	"diesel":       {"reset", "revert", "redo"},
	"sqlx":         {"drop", "reset", "revert"},
	"drizzle-kit":  {"drop"},
	"manage.py":    {"flush", "reset_db"},
	"django-admin": {"flush", "reset_db"},
	"artisan":      {"migrate:fresh", "migrate:reset", "migrate:rollback", "migrate:refresh", "db:wipe"},
	"rails":        {"db:drop", "db:reset", "db:rollback", "db:purge", "db:truncate_all", "db:schema:load", "db:structure:load", "db:migrate:reset", "db:migrate:redo", "db:migrate:down", "db:seed:replant", "db:drop:all", "db:purge:all"},
}

func migrationToolFamily() family {
	return family{names: []string{"goose", "migrate", "atlas", "alembic", "knex", "sequelize", "typeorm", "diesel", "sqlx", "drizzle-kit", "manage.py", "django-admin", "artisan"}, classify: migrationTool}
}

// migrationTool classifies a migration tool: a command of migrationUndo
// is destructive, anything else changes the database the project names,
// which is the project's own work.
func migrationTool(c *cmd) {
	if undoesMigrations(c, c.name) {
		return
	}
	c.add(LocalWrite, ChangesDatabase.By(c.name, "", ""))
	c.cwdWrite()
}

// undoesMigrations adds destructive when an operand of c is one of the
// commands of tool that lose data ("migrate APP zero" of Django too).
func undoesMigrations(c *cmd, tool string) bool {
	undo := migrationUndo[tool]
	ops := c.operands()
	for i, w := range ops {
		v := w.Value
		if tool == "rails" {
			v, _, _ = strings.Cut(v, "[") // rake's task arguments
		}
		if slices.Contains(undo, v) {
			c.add(Destructive, Destroys.By(tool, v, ""))
			return true
		}
		if (tool == "manage.py" || tool == "django-admin") && v == "migrate" && i+2 < len(ops) && ops[i+2].Value == "zero" {
			c.add(Destructive, Destroys.By(tool, "migrate", ops[i+1].Value+" zero"))
			return true
		}
	}
	return false
}

// redisModes: redis-cli's scanning and statistics modes only read.
func redisModes(c *cmd) bool {
	mode := false
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].Value
		switch v {
		case "--scan", "--bigkeys", "--memkeys", "--hotkeys", "--stat", "--latency", "--latency-history", "--latency-dist", "--intrinsic-latency", "--keystats":
			mode = true
		case "--pattern", "--count", "-i", "-h", "-p", "-a", "-n", "-u", "--user", "--pass":
			i++
		default:
			if !strings.HasPrefix(v, "-") {
				return false
			}
		}
	}
	if mode {
		c.add(Read, OnlyReads.By(c.name, "", ""))
	}
	return mode
}

// sqlInput adds to stmts the SQL the segment's input redirections give
// (a body built at run time is opaque when checkBuilt); a file it reads
// from is not read, and opaque. With no SQL at all it classifies the
// segment, an interactive session or input from the pipeline it does not
// read, and reports false.
func (c *cmd) sqlInput(stmts []string, checkBuilt bool) ([]string, bool) {
	for _, r := range c.seg.Redirs {
		if r.Input() {
			if checkBuilt && !r.BodyLiteral {
				c.add(Opaque, BuiltAtRunTime.By(c.name, "", ""))
			}
			stmts = append(stmts, r.Body)
		} else if r.Reads() {
			c.add(Opaque, RunsUnread.By(c.name, "", r.Target.Raw))
		}
	}
	if len(stmts) > 0 {
		return stmts, true
	}
	if c.seg.Pipeline != 0 && c.seg.Stage > 0 {
		c.add(Opaque, RunsUnread.By(c.name, "", ""))
	} else {
		c.add(Opaque, Interactive.By(c.name, "", ""))
	}
	return nil, false
}
