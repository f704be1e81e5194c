package conformance.fuzz;

import com.alibaba.otter.canal.common.CanalException;
import com.taobao.tddl.dbsync.binlog.FileLogFetcher;
import com.taobao.tddl.dbsync.binlog.LogBuffer;
import com.taobao.tddl.dbsync.binlog.LogContext;
import com.taobao.tddl.dbsync.binlog.LogDecoder;
import com.taobao.tddl.dbsync.binlog.LogEvent;
import com.taobao.tddl.dbsync.binlog.LogPosition;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;

/** Canal's entry points that decode a whole file or its events, as Canal itself calls them; the
 *  prefix of the decoder's classes and its documented errors, for Findings. */
final class Targets {
    static final String LIBRARY = "com.taobao.tddl.dbsync.binlog";

    interface Target {
        void parse(byte[] data) throws Exception;
    }

    static final Map<String, Target> BY_NAME = Map.of(
        "FileLogFetcher", Targets::fileLogFetcher,
        "LogDecoder", Targets::logDecoder);

    private static File file;

    private Targets() {
    }

    /** The classes that decode an event's body (where Findings names a hang). */
    static boolean decodesEvents(String className) {
        return className.startsWith(LIBRARY + ".event.");
    }

    /** How the decoder refuses its input (the adapter's Library.refusal): IOException for a bad
     *  file or stream, IllegalArgumentException from LogBuffer's own bounds checks ("limit
     *  excceed", "capacity excceed"), CanalException (TableIdNotFoundException: a rows event whose
     *  table id no Table_map named). */
    static boolean refusal(Throwable t) {
        return t instanceof IOException || t instanceof IllegalArgumentException || t instanceof CanalException;
    }

    /** The file as LocalBinLogConnection.dump reads it (the adapter's FileTestee): a 16 KiB
     *  FileLogFetcher opened at byte 4, a decoder for every type, fetch() and decode() until the
     *  fetcher ends; a Transaction_payload's events through processIterateDecode. The input goes
     *  to one temporary file per process, rewritten for each input (the fetcher reads a File). */
    static void fileLogFetcher(byte[] data) throws IOException {
        if (file == null) {
            file = File.createTempFile("canal-fuzz", ".bin");
            file.deleteOnExit();
        }
        Files.write(file.toPath(), data);
        try (FileLogFetcher fetcher = new FileLogFetcher(16 * 1024)) {
            LogDecoder decoder = new LogDecoder(LogEvent.UNKNOWN_EVENT, LogEvent.ENUM_END_EVENT);
            LogContext context = context(file.getName());
            fetcher.open(file, 4L);
            while (fetcher.fetch()) {
                inner(decoder, decoder.decode(fetcher, context), context);
            }
        }
    }

    /** The decoder as the stream connection drives it (MysqlConnection.dump: one decode() per
     *  packet DirectLogFetcher fetches): the events after the magic number, cut where each one's
     *  header says it ends, each decoded from a LogBuffer of its own with one decoder and context. */
    static void logDecoder(byte[] data) throws IOException {
        if (data.length < 4 || data[0] != (byte) 0xfe || data[1] != 'b' || data[2] != 'i' || data[3] != 'n') {
            return;
        }
        LogDecoder decoder = new LogDecoder(LogEvent.UNKNOWN_EVENT, LogEvent.ENUM_END_EVENT);
        LogContext context = context("binlog.000001");
        for (int pos = 4; pos + 19 <= data.length; ) {
            long size = (data[pos + 9] & 0xffL) | (data[pos + 10] & 0xffL) << 8 | (data[pos + 11] & 0xffL) << 16
                | (data[pos + 12] & 0xffL) << 24;
            if (size < 19 || size > data.length - pos) {
                return;
            }
            inner(decoder, decoder.decode(new LogBuffer(Arrays.copyOfRange(data, pos, pos + (int) size), 0, (int) size),
                context), context);
            pos += (int) size;
        }
    }

    /** A context at byte 4 of the named file, as Canal's connections start one (the decoder
     *  moves its position along). */
    private static LogContext context(String name) {
        LogContext context = new LogContext();
        context.setLogPosition(new LogPosition(name, 4L));
        return context;
    }

    private static void inner(LogDecoder decoder, LogEvent event, LogContext context) throws IOException {
        if (event != null && event.getHeader().getType() == LogEvent.TRANSACTION_PAYLOAD_EVENT) {
            decoder.processIterateDecode(event, context);
        }
    }
}
