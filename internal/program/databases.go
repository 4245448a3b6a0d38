package program

// databases registers the programs risk classifies in risk/databases.go.
func (r builder) databases() {
	// Editors, pagers and calculators whose commands can start a shell.
	r.add(Escapes, `mysql mariadb psql`)

	// Options whose value is a program or a command line.
	r.progOpts("mysql", "--pager")
	r.progOpts("mariadb", "--pager")

	r.add(0, `consul flyway liquibase prisma dbmate sqitch clickhouse-client cockroach redis-cli mongosh mongo
		createdb dropdb createuser dropuser pg_dump pg_dumpall pg_restore pg_ctl mysqladmin mysqldump
		mongodump mongorestore mongoimport mongoexport etcdctl kafka-topics kafka-console-producer
		kafka-consumer-groups rabbitmqctl rabbitmqadmin nats valkey-cli pgcli mycli litecli usql
		kafka-topics.sh kafka-console-producer.sh kafka-consumer-groups.sh`)

	r.add(Builds, `alembic artisan atlas diesel django-admin drizzle-kit goose knex manage.py migrate sequelize
		sqlx typeorm`)
}
