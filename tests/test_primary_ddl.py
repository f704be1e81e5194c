"""The DDL replay that describes a bare binlog's tables (harness/primary/ddl.py): what it
follows, and that what it does not follow leaves the table unknown rather than guessed. The
replay against real servers' statements and schemas: tests/test_primary_lookups.py (every
corpus case's CREATE TABLEs give the columns case.json recorded from the server)."""
from __future__ import annotations

from harness.primary.ddl import Dialect, SchemaReplay


def _columns(replay: SchemaReplay, key: tuple[str, str]) -> list[tuple[str, str, bool, str]]:
    table = replay.tables[key]
    assert table is not None
    return [(c.name, c.column_type, c.nullable, c.key) for c in table.columns]


def test_create_alter_rename_drop() -> None:
    r = SchemaReplay()
    r.apply("d", "CREATE TABLE t (id INT UNSIGNED NOT NULL, e ENUM('a','it''s') CHARACTER SET latin1, "
                 "b VARCHAR(10) CHARACTER SET binary, PRIMARY KEY (id), KEY (e)) DEFAULT CHARSET=utf8mb4")
    assert _columns(r, ("d", "t")) == [("id", "int unsigned", False, "PRI"), ("e", "enum('a','it''s')", True, "MUL"),
                                       ("b", "varbinary(10)", True, "")]
    r.apply("d", "ALTER TABLE d.t ADD COLUMN x DATETIME(0) AFTER id, DROP COLUMN b, CHANGE e e2 SET('p','q') NOT NULL")
    assert _columns(r, ("d", "t")) == [("id", "int unsigned", False, "PRI"), ("x", "datetime", True, ""),
                                       ("e2", "set('p','q')", False, "")]
    r.apply(None, "RENAME TABLE d.t TO d.u")
    assert ("d", "t") not in r.tables and [c[0] for c in _columns(r, ("d", "u"))] == ["id", "x", "e2"]
    r.apply("d", "DROP TABLE u")  # the schema at the time: kept
    assert [c[0] for c in _columns(r, ("d", "u"))] == ["id", "x", "e2"]


def test_an_altered_table_keeps_the_create_table_that_made_it() -> None:
    """SHOW CREATE TABLE answers it (docs/primary.md): Debezium, answered a rendering of the final
    definition, ignores the binlog's CREATE of a table it already has and replays the binlog's
    ALTER onto the final definition (rust_mysql_common's rpl_cross_version_... binlog: 'Trying to
    change column foo in test.foobar table, which does not exist')."""
    r = SchemaReplay()
    create = "CREATE TABLE `foobar` (`id` int NOT NULL, `foo` varchar(100) NOT NULL, PRIMARY KEY (`id`))"
    r.apply("test", create)
    r.apply("test", "ALTER TABLE `foobar` CHANGE `foo` `old_foo` varchar(100) NOT NULL")
    altered = r.tables[("test", "foobar")]
    assert altered is not None and altered.create_statement == create
    assert [c.name for c in altered.columns] == ["id", "old_foo"]
    r.apply("test", "ALTER TABLE foobar RENAME TO renamed")  # the statement names another table
    renamed = r.tables[("test", "renamed")]
    assert renamed is not None and renamed.create_statement is None


def test_what_is_not_followed_is_unknown_not_guessed() -> None:
    r = SchemaReplay()
    r.apply("d", "CREATE TABLE t (id INT)")
    r.apply("d", "ALTER TABLE t PARTITION BY HASH(id) PARTITIONS 2")
    r.apply("d", "CREATE TABLE c LIKE t")
    r.apply("d", "CREATE TABLE s AS SELECT 1 AS one")
    assert r.tables == {("d", "t"): None, ("d", "c"): None, ("d", "s"): None}


def test_types_as_each_flavor_lists_them() -> None:
    sql = "CREATE TABLE t (a INT, b TINYINT(1), c YEAR, d JSON, g GEOMETRYCOLLECTION)"
    mysql, mariadb = SchemaReplay(), SchemaReplay(Dialect.of("mariadb", (10, 11, 0)))
    mysql.apply("d", sql)
    mariadb.apply("d", sql)
    assert [c[1] for c in _columns(mysql, ("d", "t"))] == ["int", "tinyint(1)", "year", "json", "geomcollection"]
    assert [c[1] for c in _columns(mariadb, ("d", "t"))] == ["int(11)", "tinyint(1)", "year(4)", "longtext",
                                                            "geometrycollection"]


def test_every_corpus_case_ddl_gives_the_columns_the_server_listed() -> None:
    """Each case's binlogs served bare (no case.json): the replay of their DDL lists every table
    the server recorded (case.json `tables`) with the server's names, COLUMN_TYPE, nullability
    and key."""
    import json
    from pathlib import Path

    from harness.primary.served import load
    from harness.primary.tables import case_tables
    compared = 0
    for meta_path in sorted(Path(__file__).resolve().parents[1].glob("corpus/*/*/case.json")):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        files = [str(meta_path.parent / b["name"]) for b in meta.get("binlogs") or []
                 if (meta_path.parent / b["name"]).exists()]
        if not files:
            continue
        served = load(files).tables
        for key, recorded in case_tables(meta).items():
            want = [(c.name, c.column_type, c.nullable, c.key) for c in recorded.columns]
            assert key in served, (meta_path.parent, key)
            assert [(c.name, c.column_type, c.nullable, c.key) for c in served[key].columns] == want, meta_path
            compared += 1
    assert compared >= 200


def test_each_change_starts_an_epoch_and_keeps_the_one_before() -> None:
    """SchemaReplay.changed names what a statement gave a new definition (an epoch begins:
    harness/primary/epochs.py); the earlier definition's columns are not touched by the ALTER."""
    r = SchemaReplay()
    r.apply("d", "CREATE TABLE t (id INT, v INT)")
    assert r.changed == [("d", "t")]
    first = r.tables[("d", "t")]
    r.apply("d", "ALTER TABLE t ADD PRIMARY KEY (id), ADD COLUMN w INT")
    assert r.changed == [("d", "t")] and first is not None
    assert [(c.name, c.key) for c in first.columns] == [("id", ""), ("v", "")]
    r.apply("d", "INSERT INTO t VALUES (1, 2, 3)")
    r.apply("d", "DROP TABLE t")
    assert r.changed == []


def test_a_bare_binlog_answers_each_position_with_its_epoch() -> None:
    """ddl_dml_basic's binlog alone (no case.json): the DDL replay gives t1db.people 3 columns
    until the ALTER's Query event ends and 4 from there; every Table_map is an epoch's."""
    from pathlib import Path

    from harness.primary.served import load
    path = Path(__file__).resolve().parents[1] / "corpus" / "mysql-9.7" / "ddl_dml_basic--row" / "binlog.000001"
    logs = load([str(path)])
    key = ("t1db", "people")
    final = logs.tables[key]
    epochs = [logs.epochs.epoch_at(key, pos) for pos, keys in sorted(logs.epochs.table_maps.items()) if key in keys]
    assert epochs == [0, 0, 0, 0, 0, 1]
    widths = [len(logs.epochs.table_at(key, e, final).columns) for e in epochs]  # type: ignore[union-attr]
    assert widths == [3, 3, 3, 3, 3, 4] and len(final.columns) == 4
    assert logs.epochs.epoch_at(key, None) is None  # no Table_map read yet: the final definition
