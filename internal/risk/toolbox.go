// The table of the programs sayso knows by a classifier of their own.

package risk

// toolbox are the classifiers of the everyday toolbox beyond programs.go:
// other version control systems and forges, database and queue clients,
// disk tools, deploy tools, senders, and the programs that run others.
func toolbox() map[string]func(*cmd) {
	return map[string]func(*cmd){
		"jj": jj, "hg": hg, "svn": svn, "tea": tea, "gt": graphite, "fossil": otherVCS, "bzr": otherVCS, "darcs": otherVCS,
		"createdb": pgAdmin, "createuser": pgAdmin, "dropdb": pgAdmin, "dropuser": pgAdmin, "pg_dump": dumpDB, "pg_dumpall": dumpDB,
		"mysqldump": dumpDB, "mongodump": dumpDB, "mongoexport": dumpDB, "pg_restore": restoreDB, "mongorestore": restoreDB,
		"mongoimport": restoreDB, "pg_isready": readOnly, "pg_ctl": pgCtl, "mysqladmin": mysqladmin, "etcdctl": etcdctl,
		"kafka-topics": kafkaTopics, "kafka-console-producer": kafkaProducer, "kafka-console-consumer": readOnly,
		"kafka-consumer-groups": kafkaGroups, "rabbitmqctl": rabbitmq, "rabbitmqadmin": rabbitmq, "nats": nats,
		"memcached": localWrite, "consul": consul,
		"sgdisk": partitioner, "gdisk": partitioner, "cgdisk": partitioner, "diskutil": diskutil, "hdiutil": hdiutil,
		"mkdocs": mkdocs, "ko": ko, "helmfile": helmfile, "skaffold": skaffold, "eksctl": eksctl, "flyway": flyway,
		"liquibase": liquibase, "prisma": prisma, "goose": migrationTool, "migrate": migrationTool, "atlas": migrationTool,
		"alembic": migrationTool, "knex": migrationTool, "sequelize": migrationTool, "typeorm": migrationTool, "diesel": migrationTool,
		"sqlx": migrationTool, "drizzle-kit": migrationTool, "manage.py": migrationTool, "django-admin": migrationTool, "artisan": migrationTool,
		"dbmate": dbmate, "sqitch": sqitch, "flux": flux, "tilt": tilt, "packer": packer,
		"vagrant": vagrant, "kustomize": kustomize, "kind": localCluster, "minikube": localCluster, "k3d": localCluster,
		"colima": localCluster, "lima": localCluster, "kubectx": kubeContext, "kubens": kubeContext, "k9s": k9s, "stern": readOnly,
		"buildah": buildah, "docker-compose": dockerCompose, "earthly": earthly, "ansible-galaxy": localWrite,
		"doctl": genericCloud, "linode-cli": genericCloud, "hcloud": genericCloud, "scw": genericCloud, "ibmcloud": genericCloud,
		"oci": genericCloud, "aliyun": genericCloud, "render": genericCloud,
		"openssl": openssl, "swaks": swaks, "websocat": websocket, "wscat": websocket, "tailscale": tailscale,
		"zerotier-cli": networkConfig, "wg": networkConfig, "wg-quick": networkConfig, "ssh-copy-id": sshCopyID,
		"mosh": ssh, "autossh": ssh, "grpcurl": grpcurl, "httpie": httpie, "s3cmd": s3cmd, "lftp": netcat, "ncftp": netcat,
		"smbclient": netcat,
		"watchexec": runsCommand, "nodemon": runsCommand, "hyperfine": runsCommand, "concurrently": runsCommand,
		"direnv": direnv, "mise": mise, "aws-vault": awsVault, "sops": sops, "credstash": credstash, "doppler": doppler, "dotenv": runsCommand,
		"hatch": envManager, "rye": envManager, "pixi": envManager,
		"devbox": envManager, "nix": nix, "nix-shell": envManager, "cmake": cmake, "fzf": fzf,
		"tree-sitter": localWrite, "newgrp": privileged, "view": editor, "watch": readOnly,
		"coproc": opaqueProgram,
	}
}

// addToolbox adds the toolbox to programs.
func addToolbox(programs map[string]func(*cmd)) {
	for k, v := range toolbox() {
		programs[k] = v
	}
}

func readOnlyFamily() family {
	return family{names: []string{"kafka-console-consumer.sh"}, classify: readOnly}
}

func readOnly(c *cmd) { c.add(Read, OnlyReads.By(c.name, "", "")) }

func opaqueProgramFamily() family {
	return family{names: []string{"hurl", "lazygit", "lazydocker", "ranger", "broot", "wine"}, classify: opaqueProgram}
}

func opaqueProgram(c *cmd) { c.add(Opaque, RunsUnread.By(c.name, "", "")) }

// word returns the first n operands as plain words (options skipped).
func (c *cmd) verb() string { return c.words(1)[0] }
