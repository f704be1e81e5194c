"""The configuration matrix: which binlog settings exist, where, and which few we use by default.

Every setting is data (name -> values and the oldest server per flavor that has it), so adding a
server generation means editing tables, not code. A configuration is a named set of settings given
to the server at start; one server start serves every scenario run under that configuration.

The committed corpus must stay small (under 40 MB in git) and quick to rebuild, so each scenario
runs under the configurations listed for it in `EXTRA_CONFIGS` plus the first configuration of
`DEFAULT_ORDER` whose settings fit the scenario's declared needs; `--all-configs` runs the lot.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .sqlscript import Scenario

Version = tuple[int, ...]


@dataclass(frozen=True)
class Setting:
    """A server option the matrix varies. `since` maps flavor -> oldest version that has it;
    `companions` are options a value needs to be accepted (value -> {option: value})."""

    values: tuple[str, ...]
    since: dict[str, Version]
    companions: dict[str, dict[str, str]] = field(default_factory=dict)

    def supported(self, flavor: str, version: Version) -> bool:
        return flavor in self.since and version >= self.since[flavor]


SETTINGS: dict[str, Setting] = {
    "binlog_format": Setting(("ROW", "STATEMENT", "MIXED"), {"mysql": (5, 1), "mariadb": (5, 1)}),
    "binlog_row_image": Setting(("FULL", "MINIMAL", "NOBLOB"), {"mysql": (5, 6), "mariadb": (10, 1)}),
    "binlog_checksum": Setting(("CRC32", "NONE"), {"mysql": (5, 6), "mariadb": (5, 3)}),
    "gtid_mode": Setting(("ON", "OFF"), {"mysql": (5, 6, 5)},
                         {"ON": {"enforce_gtid_consistency": "ON"},
                          "OFF": {"enforce_gtid_consistency": "OFF"}}),
    "binlog_row_metadata": Setting(("MINIMAL", "FULL"), {"mysql": (8, 0, 1), "mariadb": (10, 5)}),
    "binlog_transaction_compression": Setting(("ON", "OFF"), {"mysql": (8, 0, 20)}),
    "binlog_rows_query_log_events": Setting(("ON", "OFF"), {"mysql": (5, 6, 2)}),
    "binlog_row_value_options": Setting(("PARTIAL_JSON", ""), {"mysql": (8, 0, 3)}),
    "log_bin_compress": Setting(("ON", "OFF"), {"mariadb": (10, 2, 3)},
                                {"ON": {"log_bin_compress_min_len": "10"}}),
    "binlog_annotate_row_events": Setting(("ON", "OFF"), {"mariadb": (5, 3)}),
}

# MySQL 5.6 refuses gtid_mode=ON without log_slave_updates (later versions default it on and
# 8.4+ dropped the old name), so it is a version-bounded companion: (flavor, below) -> options.
_OLD_COMPANIONS: dict[tuple[str, str, str], tuple[Version, dict[str, str]]] = {
    ("mysql", "gtid_mode", "ON"): ((5, 7), {"log_slave_updates": "ON"}),
}

# Options every configuration gets: room for the >16 MB event, and a known LOAD DATA / OUTFILE
# directory (NULL secure_file_priv means "disabled" on MySQL but "anywhere" on MariaDB).
BASE_OPTIONS = {"max_allowed_packet": "64M", "secure_file_priv": "/var/lib/mysql-files"}
SECURE_FILE_DIR = BASE_OPTIONS["secure_file_priv"]


@dataclass(frozen=True)
class Config:
    """A named set of settings. Settings a server lacks are dropped for it (see `applicable`)."""

    name: str
    settings: dict[str, str]
    description: str
    extra_options: dict[str, str] = field(default_factory=dict)  # outside the matrix, every server

    def applicable(self, flavor: str, version: Version) -> dict[str, str]:
        return {k: v for k, v in self.settings.items() if SETTINGS[k].supported(flavor, version)}


_ROW_FULL = {"binlog_format": "ROW", "binlog_row_image": "FULL", "binlog_checksum": "CRC32",
             "binlog_row_metadata": "FULL"}

CONFIGS: dict[str, Config] = {c.name: c for c in (
    Config("row", {**_ROW_FULL, "gtid_mode": "ON", "binlog_rows_query_log_events": "ON",
                   "binlog_annotate_row_events": "ON"},
           "ROW, FULL image, CRC32, full metadata, GTIDs, Rows_query / Annotate_rows events"),
    Config("row-minimal", {"binlog_format": "ROW", "binlog_row_image": "MINIMAL",
                           "binlog_checksum": "NONE", "binlog_row_metadata": "MINIMAL",
                           "gtid_mode": "OFF", "binlog_row_value_options": "PARTIAL_JSON",
                           "binlog_annotate_row_events": "OFF"},
           "ROW, MINIMAL image, no checksums, minimal metadata, anonymous GTIDs, partial JSON"),
    Config("row-noblob", {"binlog_format": "ROW", "binlog_row_image": "NOBLOB",
                          "binlog_checksum": "CRC32", "binlog_row_metadata": "MINIMAL",
                          "gtid_mode": "OFF", "binlog_annotate_row_events": "OFF"},
           "ROW, NOBLOB image, minimal metadata, anonymous GTIDs"),
    # LOAD DATA logs its file in blocks of read_buffer_size (read at server start): 8 KB blocks
    # make a small file produce Append_block events.
    Config("statement", {"binlog_format": "STATEMENT", "binlog_checksum": "CRC32", "gtid_mode": "OFF"},
           "STATEMENT format, anonymous GTIDs, 8 KB LOAD DATA blocks", {"read_buffer_size": "8192"}),
    Config("mixed", {"binlog_format": "MIXED", "binlog_checksum": "CRC32", "gtid_mode": "ON",
                     "binlog_row_metadata": "FULL"},
           "MIXED format (unsafe statements switch to rows), GTIDs"),
    Config("row-compressed", {**_ROW_FULL, "gtid_mode": "ON", "binlog_transaction_compression": "ON",
                              "log_bin_compress": "ON"},
           "ROW with compression: Transaction_payload (MySQL) / compressed events (MariaDB)"),
)}

# The first configuration here that fits a scenario is its default.
DEFAULT_ORDER = ("row", "statement", "row-minimal", "mixed", "row-noblob", "row-compressed")

# Further configurations per scenario in the default (committed) selection: each one shows an
# effect of a setting on that scenario's events.
EXTRA_CONFIGS: dict[str, tuple[str, ...]] = {
    "ddl_dml_basic": tuple(CONFIGS),
    "integers": ("row-minimal",),
    "strings_charsets": ("row-minimal",),
    "temporal": ("row-minimal",),
    "blobs_text": ("row-noblob",),
    "table_shapes": ("row-minimal", "row-noblob"),
    "json": ("row-noblob", "row-compressed"),
    "session_context": ("mixed",),
    "transactions": ("statement", "row-minimal", "row-noblob"),
    "xa": ("statement", "row-minimal"),
    "rotation": ("statement", "row-minimal"),
    "objects": ("statement",),
    "enum_set_bit": ("row-minimal",),
    "many_rows": ("row-compressed",),
}

# Scenarios kept out of the committed corpus (too big for git); tests run them against live servers.
NOT_COMMITTED = frozenset({"huge_event"})


def fits(config: Config, scenario: Scenario, flavor: str, version: Version) -> bool:
    """True when every setting the scenario needs (and this server has) has that value here."""
    have = config.applicable(flavor, version)
    return all(have.get(k) == v for k, v in scenario.settings.items()
               if k in SETTINGS and SETTINGS[k].supported(flavor, version))


def select(scenario: Scenario, flavor: str, version: Version, *, all_configs: bool = False,
           committed: bool = True) -> list[Config]:
    """The configurations `scenario` runs under on this server (empty if it does not run)."""
    if not scenario.supports(flavor, version) or (committed and scenario.name in NOT_COMMITTED):
        return []
    fitting = [CONFIGS[n] for n in DEFAULT_ORDER if fits(CONFIGS[n], scenario, flavor, version)]
    if all_configs or not fitting:
        return fitting
    wanted = {fitting[0].name, *EXTRA_CONFIGS.get(scenario.name, ())}
    return [c for c in fitting if c.name in wanted]


def server_options(config: Config, flavor: str, version: Version) -> dict[str, str]:
    """mysqld options for one server start under `config`, companions included."""
    opts = {**BASE_OPTIONS, **config.extra_options}
    for key, value in config.applicable(flavor, version).items():
        opts[key] = value
        opts.update(SETTINGS[key].companions.get(value, {}))
        old = _OLD_COMPANIONS.get((flavor, key, value))
        if old and version < old[0]:
            opts.update(old[1])
    return opts


def session_globals(scenario: Scenario) -> dict[str, str]:
    """Scenario settings outside the matrix: global variables set just for its session."""
    return {k: v for k, v in scenario.settings.items() if k not in SETTINGS}
