package conformance;

import java.util.Map;

/** The canonical type name of a Canal LogEvent, as Canal names it: its class, which LogDecoder
 * gives to the codes listed here (WriteRowsLogEvent to v1 and v2, UpdateRowsLogEvent to a partial
 * update too, GtidLogEvent to an anonymous one). The header's code only picks among the codes the
 * library itself gives that class: UnknownLogEvent (a code it has no class for), or an
 * IgnorableLogEvent made for an unknown code with the ignorable flag, is type null. A MariaDB
 * compressed event keeps its class, but LogDecoder rewrites its header's type to the plain one
 * (167 reads 24): those codes are listed for the compressed classes too. */
final class LibraryTypes {
    private static final Map<String, Map<Integer, String>> BY_CLASS = Map.ofEntries(
        Map.entry("StartLogEventV3", Map.of(1, "START_EVENT_V3")),
        Map.entry("QueryLogEvent", Map.of(2, "QUERY_EVENT")),
        Map.entry("StopLogEvent", Map.of(3, "STOP_EVENT")),
        Map.entry("RotateLogEvent", Map.of(4, "ROTATE_EVENT")),
        Map.entry("IntvarLogEvent", Map.of(5, "INTVAR_EVENT")),
        Map.entry("LoadLogEvent", Map.of(6, "LOAD_EVENT", 12, "NEW_LOAD_EVENT")),
        Map.entry("CreateFileLogEvent", Map.of(8, "CREATE_FILE_EVENT")),
        Map.entry("AppendBlockLogEvent", Map.of(9, "APPEND_BLOCK_EVENT")),
        Map.entry("ExecuteLoadLogEvent", Map.of(10, "EXEC_LOAD_EVENT")),
        Map.entry("DeleteFileLogEvent", Map.of(11, "DELETE_FILE_EVENT")),
        Map.entry("RandLogEvent", Map.of(13, "RAND_EVENT")),
        Map.entry("UserVarLogEvent", Map.of(14, "USER_VAR_EVENT")),
        Map.entry("FormatDescriptionLogEvent", Map.of(15, "FORMAT_DESCRIPTION_EVENT")),
        Map.entry("XidLogEvent", Map.of(16, "XID_EVENT")),
        Map.entry("BeginLoadQueryLogEvent", Map.of(17, "BEGIN_LOAD_QUERY_EVENT")),
        Map.entry("ExecuteLoadQueryLogEvent", Map.of(18, "EXECUTE_LOAD_QUERY_EVENT")),
        Map.entry("TableMapLogEvent", Map.of(19, "TABLE_MAP_EVENT")),
        Map.entry("WriteRowsLogEvent", Map.of(23, "WRITE_ROWS_EVENT_V1", 30, "WRITE_ROWS_EVENT")),
        Map.entry("UpdateRowsLogEvent", Map.of(24, "UPDATE_ROWS_EVENT_V1", 31, "UPDATE_ROWS_EVENT",
            39, "PARTIAL_UPDATE_ROWS_EVENT")),
        Map.entry("DeleteRowsLogEvent", Map.of(25, "DELETE_ROWS_EVENT_V1", 32, "DELETE_ROWS_EVENT")),
        Map.entry("IncidentLogEvent", Map.of(26, "INCIDENT_EVENT")),
        Map.entry("HeartbeatLogEvent", Map.of(27, "HEARTBEAT_LOG_EVENT")),
        Map.entry("IgnorableLogEvent", Map.of(28, "IGNORABLE_LOG_EVENT")),
        Map.entry("RowsQueryLogEvent", Map.of(29, "ROWS_QUERY_LOG_EVENT")),
        Map.entry("GtidLogEvent", Map.of(33, "GTID_LOG_EVENT", 34, "ANONYMOUS_GTID_LOG_EVENT",
            42, "GTID_TAGGED_LOG_EVENT")),
        Map.entry("PreviousGtidsLogEvent", Map.of(35, "PREVIOUS_GTIDS_LOG_EVENT")),
        Map.entry("TransactionContextLogEvent", Map.of(36, "TRANSACTION_CONTEXT_EVENT")),
        Map.entry("ViewChangeEvent", Map.of(37, "VIEW_CHANGE_EVENT")),
        Map.entry("XaPrepareLogEvent", Map.of(38, "XA_PREPARE_LOG_EVENT")),
        Map.entry("TransactionPayloadLogEvent", Map.of(40, "TRANSACTION_PAYLOAD_EVENT")),
        Map.entry("HeartbeatV2LogEvent", Map.of(41, "HEARTBEAT_LOG_EVENT_V2")),
        Map.entry("AnnotateRowsEvent", Map.of(160, "ANNOTATE_ROWS_EVENT")),
        Map.entry("BinlogCheckPointLogEvent", Map.of(161, "BINLOG_CHECKPOINT_EVENT")),
        Map.entry("MariaGtidLogEvent", Map.of(162, "GTID_EVENT")),
        Map.entry("MariaGtidListLogEvent", Map.of(163, "GTID_LIST_EVENT")),
        Map.entry("StartEncryptionLogEvent", Map.of(164, "START_ENCRYPTION_EVENT")),
        Map.entry("QueryCompressedLogEvent", Map.of(165, "QUERY_COMPRESSED_EVENT", 2, "QUERY_COMPRESSED_EVENT")),
        Map.entry("WriteRowsCompressLogEvent", Map.of(166, "WRITE_ROWS_COMPRESSED_EVENT_V1", 169, "WRITE_ROWS_COMPRESSED_EVENT",
            23, "WRITE_ROWS_COMPRESSED_EVENT_V1", 30, "WRITE_ROWS_COMPRESSED_EVENT")),
        Map.entry("UpdateRowsCompressLogEvent", Map.of(167, "UPDATE_ROWS_COMPRESSED_EVENT_V1", 170, "UPDATE_ROWS_COMPRESSED_EVENT",
            24, "UPDATE_ROWS_COMPRESSED_EVENT_V1", 31, "UPDATE_ROWS_COMPRESSED_EVENT")),
        Map.entry("DeleteRowsCompressLogEvent", Map.of(168, "DELETE_ROWS_COMPRESSED_EVENT_V1", 171, "DELETE_ROWS_COMPRESSED_EVENT",
            25, "DELETE_ROWS_COMPRESSED_EVENT_V1", 32, "DELETE_ROWS_COMPRESSED_EVENT")));

    private LibraryTypes() {}

    static String canonical(Object event, int code) {
        Map<Integer, String> codes = BY_CLASS.get(event.getClass().getSimpleName());
        return codes == null ? null : codes.get(code);
    }
}
