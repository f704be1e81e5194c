"""One client's session: handshake v10, capability negotiation, authentication (with auth switch),
then commands from a table keyed by command byte until COM_QUIT, a dump, an error or a timeout."""
from __future__ import annotations

import dataclasses
import struct
from dataclasses import dataclass, field
from typing import Callable

from oracle.wire import packets as wp
from oracle.wire.errors import PacketError, PacketTooLarge
from oracle.wire.packets import SERVER_STATUS_AUTOCOMMIT, ErrPacket, OkPacket

from . import auth, prepared, queries, resultset
from .conn import ClientGone, PacketIO
from .dump import MYSQL_NEWER_SENDER_SINCE, BinlogSender, DumpOptions, DumpRequest
from .gtid import BadGtidSet, parse_encoded, parse_mariadb_state
from .state import ServerState
from .variables import at_status_position

SSL_REQUEST_LEN = 32

ER_HANDSHAKE_ERROR = 1043
ER_ACCESS_DENIED_ERROR = 1045
ER_UNKNOWN_COM_ERROR = 1047
ER_NOT_SUPPORTED_AUTH_MODE = 1251
ER_NET_PACKET_TOO_LARGE = 1153
ER_MALFORMED_PACKET = 1835
ER_CLIENT_INTERACTION_TIMEOUT = 4031


class EndSession(Exception):
    """Close the connection (after whatever reply was due)."""


@dataclass
class HandshakeResponse:
    capabilities: int
    user: str
    auth_data: bytes
    plugin: str | None
    database: str | None


def handshake_v10(version: str, connection_id: int, scramble: bytes, capabilities: int, charset: int,
                  plugin: str) -> bytes:
    return (b"\x0a" + version.encode() + b"\0" + struct.pack("<I", connection_id) + scramble[:8] + b"\0"
            + struct.pack("<HBHHB", capabilities & 0xFFFF, charset, wp.SERVER_STATUS_AUTOCOMMIT,
                          capabilities >> 16, len(scramble) + 1)
            + b"\0" * 10 + scramble[8:] + b"\0" + plugin.encode() + b"\0")


def parse_handshake_response(payload: bytes) -> HandshakeResponse:
    """HandshakeResponse41 (protocol 4.1 clients: every client that can replicate)."""
    if len(payload) < SSL_REQUEST_LEN:
        raise wp.TruncatedPacket(0, "handshake response is shorter than 32 bytes")
    caps = struct.unpack_from("<I", payload)[0]
    if not caps & wp.CLIENT_PROTOCOL_41:
        raise wp.BadPacket(0, "the client does not speak protocol 4.1")
    user, pos = wp.read_cstring(payload, SSL_REQUEST_LEN)
    if caps & wp.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA:
        data, pos = wp.read_lenenc_str(payload, pos)
    elif caps & wp.CLIENT_SECURE_CONNECTION:
        n = payload[pos] if pos < len(payload) else 0
        data, pos = bytes(payload[pos + 1:pos + 1 + n]), pos + 1 + n
    else:
        data, pos = wp.read_cstring(payload, pos)
    db = plugin = None
    if caps & wp.CLIENT_CONNECT_WITH_DB and pos < len(payload):
        raw_db, pos = wp.read_cstring(payload, pos)
        db = raw_db.decode("utf-8", "replace")
    if caps & wp.CLIENT_PLUGIN_AUTH and pos < len(payload):
        raw_plugin, pos = wp.read_cstring(payload, pos)
        plugin = raw_plugin.decode("ascii", "replace")
    return HandshakeResponse(caps, user.decode("utf-8", "replace"), data or b"", plugin, db)


@dataclass
class Session:
    io: PacketIO
    server: ServerState
    connection_id: int
    peer: str
    capabilities: int = 0
    user: str = ""
    scramble: bytes = field(default_factory=auth.new_scramble)
    query_session: queries.QuerySession | None = None
    statements: prepared.Statements = field(default_factory=prepared.Statements)

    def log(self, text: str) -> None:
        self.server.log(f"conn {self.connection_id}: {text}")

    # -- connection phase -------------------------------------------------------------------------
    def run(self) -> None:
        try:
            self._authenticate()
            self._command_loop()
        except EndSession:
            pass
        except ClientGone as e:
            self.log(f"closed: {e}")
        except PacketTooLarge as e:
            self.log(f"closed: {e.message}")
            self._error(ErrPacket(ER_NET_PACKET_TOO_LARGE, "Got a packet bigger than 'max_allowed_packet' bytes",
                                  "08S01"))
        finally:
            self.io.close()

    def _error(self, err: ErrPacket) -> None:
        try:
            self.io.write(err.encode())
            self.io.flush()
        except ClientGone:
            pass

    def _bad_handshake(self, why: str) -> EndSession:
        self.log(f"bad handshake: {why}")
        self._error(ErrPacket(ER_HANDSHAKE_ERROR, "Bad handshake", "08S01"))
        return EndSession()

    def _authenticate(self) -> None:
        st = self.server
        self.io.write(handshake_v10(st.handshake_version, self.connection_id, self.scramble,
                                    st.capabilities, st.charset, st.account_plugin))
        packet = self.io.read(st.handshake_timeout)
        try:
            caps = struct.unpack_from("<I", packet.payload)[0] if len(packet.payload) >= 4 else 0
            if len(packet.payload) == SSL_REQUEST_LEN and caps & wp.CLIENT_SSL:
                self.io.start_tls(st.keys.tls)
                packet = self.io.read(st.handshake_timeout)
            response = parse_handshake_response(packet.payload)
        except PacketError as e:
            raise self._bad_handshake(e.message) from None
        self.capabilities = response.capabilities & st.capabilities
        self.user = response.user
        data = response.auth_data
        plugin = st.account_plugin
        if plugin != auth.NATIVE and not response.capabilities & wp.CLIENT_PLUGIN_AUTH:
            # sql_authentication.cc: an account of another plugin, a client that cannot switch
            self.log(f"client without CLIENT_PLUGIN_AUTH, account plugin {plugin}")
            self._error(ErrPacket(ER_NOT_SUPPORTED_AUTH_MODE, "Client does not support authentication protocol "
                                  "requested by server; consider upgrading MySQL client", "08004"))
            raise EndSession()
        switched = ""
        if (response.plugin or auth.NATIVE) != plugin:  # auth switch request
            self.io.write(b"\xfe" + plugin.encode() + b"\0" + self.scramble + b"\0")
            data = self.io.read(st.handshake_timeout).payload
            switched = f", switched from {response.plugin or auth.NATIVE}"
        ok, how = AUTH_METHODS[plugin](self, data)
        how += switched
        if not (ok and self.user == st.options.user):
            self.log(f"access denied for user '{self.user}' ({plugin})")
            self._error(ErrPacket(ER_ACCESS_DENIED_ERROR, f"Access denied for user '{self.user}'@'localhost' "
                                  f"(using password: {'YES' if data else 'NO'})", "28000"))
            raise EndSession()
        self.log(f"user '{self.user}' authenticated ({plugin}, {how}{', TLS' if self.io.tls else ''})")
        status = st.options.status_position
        variables = dict(st.variables) if status is None else at_status_position(st.variables, st.logs, status)
        self.query_session = queries.QuerySession(st.logs, variables, self.user, self.connection_id,
                                                  database=response.database or None, groups=st.groups,
                                                  status_position=st.options.status_position)
        self.io.write(OkPacket().encode())

    # -- command phase --------------------------------------------------------------------------
    def _command_loop(self) -> None:
        while True:
            try:
                packet = self.io.read(self.server.options.idle_timeout)
            except ClientGone as e:
                if e.timed_out and self.server.timeout_error:
                    self._error(ErrPacket(ER_CLIENT_INTERACTION_TIMEOUT, "The client was disconnected by the server "
                                          "because of inactivity. See wait_timeout and interactive_timeout for "
                                          "configuring this behavior.", "HY000"))
                raise
            payload = packet.payload
            command = COMMANDS.get(payload[0]) if payload else None
            if command is None:
                self.log(f"unknown command {payload[:1].hex() or '(empty packet)'}")
                self.io.write(ErrPacket(ER_UNKNOWN_COM_ERROR, "Unknown command", "08S01").encode())
                continue
            _name, handler = command
            handler(self, payload)

    def _reply(self, reply: queries.Reply) -> None:
        status = self._status()
        if isinstance(reply, resultset.ResultSet):
            for p in resultset.encode(reply, self.capabilities, status):
                self.io.write(p)
        elif isinstance(reply, OkPacket):
            self.io.write(dataclasses.replace(reply, status=status).encode())
        else:
            self.io.write(reply.encode())

    def _status(self) -> int:
        """The server status flags: SERVER_STATUS_AUTOCOMMIT as the session's autocommit says.
        MariaDB Connector/J (Debezium's MariaDB connector) takes autocommit from these flags, not
        from what it sent: after `set autocommit=0` an OK still saying autocommit made Debezium
        refuse its snapshot ("Cannot execute without committing because auto-commit is enabled")."""
        value = self.query_session.variables.get("autocommit", 1) if self.query_session else 1
        on = str(value).strip().upper() not in ("0", "OFF", "FALSE")
        return SERVER_STATUS_AUTOCOMMIT if on else 0


# -- authentication methods ---------------------------------------------------------------------

def _auth_native(s: Session, data: bytes) -> tuple[bool, str]:
    return auth.check_scramble(auth.NATIVE, s.server.options.password, s.scramble, data), "scramble"


def _auth_caching_sha2(s: Session, data: bytes) -> tuple[bool, str]:
    """sha2_password.cc: empty password -> OK; a cached user -> fast path (0x01 0x03); otherwise
    full authentication (0x01 0x04): the password in clear over TLS, or RSA-encrypted on plain TCP,
    the client asking for the public key with 0x02 when it has none."""
    password, st = s.server.options.password, s.server
    if not password and data.rstrip(b"\0") == b"":
        return True, "empty password"
    if st.sha2_cached(s.user):
        if auth.check_scramble(auth.CACHING_SHA2, password, s.scramble, data):
            s.io.write(auth.FAST_AUTH_SUCCESS)
            return True, "fast path"
        return False, "fast path"
    s.io.write(auth.PERFORM_FULL_AUTHENTICATION)
    reply = s.io.read(st.handshake_timeout).payload
    if s.io.tls:
        ok, how = auth.check_cleartext(password, reply), "full authentication"
    else:
        if reply == auth.REQUEST_PUBLIC_KEY:
            s.io.write(b"\x01" + st.keys.public_pem)
            reply = s.io.read(st.handshake_timeout).payload
        ok, how = st.keys.check_rsa(password, s.scramble, reply), "full authentication, RSA"
    if ok and s.user == st.options.user:
        st.sha2_cache(s.user)
    return ok, how


AUTH_METHODS: dict[str, Callable[[Session, bytes], tuple[bool, str]]] = {
    auth.NATIVE: _auth_native,
    auth.CACHING_SHA2: _auth_caching_sha2,
}


# -- commands -----------------------------------------------------------------------------------

def com_quit(s: Session, payload: bytes) -> None:
    s.log("COM_QUIT")
    raise EndSession()


def com_init_db(s: Session, payload: bytes) -> None:
    database = payload[1:].decode("utf-8", "replace")
    s.log(f"COM_INIT_DB {database}")
    assert s.query_session is not None
    s.query_session.database = database
    s.io.write(OkPacket().encode())


def com_ping(s: Session, payload: bytes) -> None:
    s.log("COM_PING")
    s.io.write(OkPacket().encode())


def com_query(s: Session, payload: bytes) -> None:
    sql = payload[1:].decode("utf-8", "replace")
    s.log(f"COM_QUERY {queries.normalize(sql)[:160]}")
    assert s.query_session is not None
    s._reply(queries.answer(s.query_session, sql))


def com_stmt_prepare(s: Session, payload: bytes) -> None:
    sql = payload[1:].decode("utf-8", "replace")
    s.log(f"COM_STMT_PREPARE {queries.normalize(sql)[:160]}")
    assert s.query_session is not None
    for p in prepared.prepare(s.query_session, s.statements, sql, s.capabilities):
        s.io.write(p)


def com_stmt_execute(s: Session, payload: bytes) -> None:
    s.log("COM_STMT_EXECUTE")
    assert s.query_session is not None
    for p in prepared.execute(s.query_session, s.statements, payload, s.capabilities):
        s.io.write(p)


def com_stmt_close(s: Session, payload: bytes) -> None:
    s.log("COM_STMT_CLOSE")
    prepared.close(s.statements, payload)


def com_stmt_reset(s: Session, payload: bytes) -> None:
    s.log("COM_STMT_RESET")
    s.io.write(prepared.reset(s.statements, payload))


def com_register_slave(s: Session, payload: bytes) -> None:
    server_id = struct.unpack_from("<I", payload, 1)[0] if len(payload) >= 5 else None
    s.log(f"COM_REGISTER_SLAVE server_id={server_id}")
    if server_id is None:
        s.io.write(ErrPacket(ER_MALFORMED_PACKET, "Malformed communication packet.").encode())
        return
    s.io.write(OkPacket().encode())


def _malformed(s: Session, what: str) -> EndSession:
    s.log(f"{what}: malformed packet")
    s._error(ErrPacket(ER_MALFORMED_PACKET, "Malformed communication packet."))
    return EndSession()


def com_binlog_dump(s: Session, payload: bytes) -> None:
    if len(payload) < 11:
        raise _malformed(s, "COM_BINLOG_DUMP")
    pos, flags, server_id = struct.unpack_from("<IHI", payload, 1)
    name = payload[11:].split(b"\0", 1)[0].decode("utf-8", "replace")
    req = DumpRequest(name, pos, flags, server_id)
    state = _user_var(s, "slave_connect_state")
    # get_slave_connect_state: any non-NULL value, '' too, makes the dump a GTID start (an empty
    # state: from the first binlog, through the GTID code: an 11.4+ server asks its GTID index)
    if s.server.logs.flavor == "mariadb" and state is not None:
        try:
            req.mariadb_start = parse_mariadb_state(str(state))
            req.mariadb_strict = bool(_number(_user_var(s, "slave_gtid_strict_mode") or 0))
            req.mariadb_ignore_duplicates = bool(_number(_user_var(s, "slave_gtid_ignore_duplicates") or 0))
        except BadGtidSet as e:
            s._error(ErrPacket(1236, str(e)))
            raise EndSession() from None
    _dump(s, "COM_BINLOG_DUMP", req)


def com_binlog_dump_gtid(s: Session, payload: bytes) -> None:
    try:
        flags, server_id, name_len = struct.unpack_from("<HII", payload, 1)
        # com_binlog_dump_gtid copies the name, then uses it as a C string: a name of NULs
        # (python-mysql-replication sends 3) is no name, and the dump starts by GTID
        name = payload[11:11 + name_len].split(b"\0", 1)[0].decode("utf-8", "replace")
        pos = struct.unpack_from("<Q", payload, 11 + name_len)[0]
        data = b""
        # com_binlog_dump_gtid reads data_size and the set whatever the flags say (go-mysql sends
        # flags 0 with its set): BINLOG_THROUGH_GTID is not consulted there
        if len(payload) >= 23 + name_len:
            size = struct.unpack_from("<I", payload, 19 + name_len)[0]
            data = payload[23 + name_len:23 + name_len + size]
            if len(data) != size:
                raise struct.error("GTID set shorter than its size")
        exclude = parse_encoded(data)
    except (struct.error, BadGtidSet):
        raise _malformed(s, "COM_BINLOG_DUMP_GTID") from None
    _dump(s, "COM_BINLOG_DUMP_GTID", DumpRequest(name, max(pos, 4), flags, server_id, mysql_exclude=exclude))


def _user_var(s: Session, name: str) -> object:
    assert s.query_session is not None
    return s.query_session.user_vars.get(name)


def _checksum_announced(s: Session) -> int | None:
    value = _user_var(s, "source_binlog_checksum") or _user_var(s, "master_binlog_checksum")
    if value is None:
        return None
    return {"NONE": 0, "CRC32": 1}.get(str(value).upper(), 0)


def _number(value: object) -> int:
    """A user variable as the server's val_int() reads it: leading digits, else 0."""
    try:
        return int(float(str(value)))
    except ValueError:
        return 0


def _dump(s: Session, what: str, req: DumpRequest) -> None:
    st = s.server
    period = _user_var(s, "source_heartbeat_period") or _user_var(s, "master_heartbeat_period") or 0
    opts = DumpOptions(st.server_id, _checksum_announced(s), _number(period), st.logs.flavor,
                       st.logs.flavor == "mysql" and st.logs.version >= MYSQL_NEWER_SENDER_SINCE,
                       _number(_user_var(s, "mariadb_slave_capability") or 0), st.logs.version,
                       st.options.heartbeats_after)
    s.log(f"{what} file='{req.file}' pos={req.pos} flags={req.flags:#x} server_id={req.server_id}")
    uuid = str(_user_var(s, "replica_uuid") or _user_var(s, "slave_uuid") or "")
    io = st.options.wire_fault.wrap(s.io, (req.server_id, uuid)) if st.options.wire_fault is not None else s.io
    running, older = st.dumps.start(req.server_id, uuid, st.logs.flavor == "mysql")
    if older is not None:
        s.log(f"a dump of the same replica (server_id={req.server_id}{f', uuid {uuid}' if uuid else ''}) "
              "was running: it is ended")
    sender = BinlogSender(io, st.logs, req, opts, st.stop, s.log, (st.groups, s.user), st.dump_starts,
                          running.superseded)
    try:
        sender.run()
    finally:
        st.dumps.end(running)
        s.log(f"dump ended after {sender.events_sent} events")
    raise EndSession()  # the server ends the connection after a dump (dispatch_command)


COMMANDS: dict[int, tuple[str, Callable[[Session, bytes], None]]] = {
    0x01: ("COM_QUIT", com_quit),
    0x02: ("COM_INIT_DB", com_init_db),
    0x03: ("COM_QUERY", com_query),
    0x0E: ("COM_PING", com_ping),
    0x12: ("COM_BINLOG_DUMP", com_binlog_dump),
    0x15: ("COM_REGISTER_SLAVE", com_register_slave),
    0x16: ("COM_STMT_PREPARE", com_stmt_prepare),
    0x17: ("COM_STMT_EXECUTE", com_stmt_execute),
    0x19: ("COM_STMT_CLOSE", com_stmt_close),
    0x1A: ("COM_STMT_RESET", com_stmt_reset),
    0x1E: ("COM_BINLOG_DUMP_GTID", com_binlog_dump_gtid),
}
