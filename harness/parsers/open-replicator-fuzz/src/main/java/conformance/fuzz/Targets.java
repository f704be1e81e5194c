package conformance.fuzz;

import com.google.code.or.binlog.BinlogParser;
import com.google.code.or.binlog.BinlogParserListener;
import com.google.code.or.binlog.impl.FileBasedBinlogParser;
import com.google.code.or.binlog.impl.parser.DeleteRowsEventParser;
import com.google.code.or.binlog.impl.parser.DeleteRowsEventV2Parser;
import com.google.code.or.binlog.impl.parser.FormatDescriptionEventParser;
import com.google.code.or.binlog.impl.parser.GtidEventParser;
import com.google.code.or.binlog.impl.parser.IncidentEventParser;
import com.google.code.or.binlog.impl.parser.IntvarEventParser;
import com.google.code.or.binlog.impl.parser.QueryEventParser;
import com.google.code.or.binlog.impl.parser.RandEventParser;
import com.google.code.or.binlog.impl.parser.RotateEventParser;
import com.google.code.or.binlog.impl.parser.StopEventParser;
import com.google.code.or.binlog.impl.parser.TableMapEventParser;
import com.google.code.or.binlog.impl.parser.UpdateRowsEventParser;
import com.google.code.or.binlog.impl.parser.UpdateRowsEventV2Parser;
import com.google.code.or.binlog.impl.parser.UserVarEventParser;
import com.google.code.or.binlog.impl.parser.WriteRowsEventParser;
import com.google.code.or.binlog.impl.parser.WriteRowsEventV2Parser;
import com.google.code.or.binlog.impl.parser.XidEventParser;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;

/** open-replicator's entry point that decodes a whole file (its replication parser needs a live
 *  server's transport; its event parsers need the file parser's context); the prefix of its
 *  classes and its documented error, for Findings. */
final class Targets {
    static final String LIBRARY = "com.google.code.or";

    interface Target {
        void parse(byte[] data) throws Exception;
    }

    static final Map<String, Target> BY_NAME = Map.of("FileBasedBinlogParser", Targets::fileBasedBinlogParser);

    private static File file;

    private Targets() {
    }

    /** The event parsers (where Findings names a hang). */
    static boolean decodesEvents(String className) {
        return className.startsWith(LIBRARY + ".binlog.impl.parser.");
    }

    /** IOException (an EOFException ends the parse without one), and the plain RuntimeException
     *  the library throws on purpose with its own message ("invalid binlog magic", "Expected
     *  FORMAT_DESCRIPTION_EVENT at top of file", "assertion failed, unknown column type", "We
     *  left N unconsumed bytes"); its subclasses (ArrayIndexOutOfBounds, IllegalArgument, ...)
     *  are not refusals. */
    static boolean refusal(Throwable t) {
        return t instanceof IOException || t.getClass() == RuntimeException.class;
    }

    /** FileBasedBinlogParser as the adapter's FileTestee sets it up (the event parsers
     *  OpenReplicator registers, start at byte 4) over a temporary file rewritten for each input.
     *  Its worker is made to run in the caller's thread: start() returns when the parse ends, an
     *  exception the worker hands to the listener is thrown here, an Error escapes as it is, and
     *  a loop that never ends is in the fuzzer's own thread, where the timeout finds it. */
    static void fileBasedBinlogParser(byte[] data) throws Exception {
        if (file == null) {
            file = File.createTempFile("open-replicator-fuzz", ".bin");
            file.deleteOnExit();
        }
        Files.write(file.toPath(), data);
        FileBasedBinlogParser parser = new FileBasedBinlogParser();
        parser.registerEventParser(new StopEventParser());
        parser.registerEventParser(new RotateEventParser());
        parser.registerEventParser(new IntvarEventParser());
        parser.registerEventParser(new XidEventParser());
        parser.registerEventParser(new RandEventParser());
        parser.registerEventParser(new QueryEventParser());
        parser.registerEventParser(new UserVarEventParser());
        parser.registerEventParser(new IncidentEventParser());
        parser.registerEventParser(new TableMapEventParser());
        parser.registerEventParser(new WriteRowsEventParser());
        parser.registerEventParser(new UpdateRowsEventParser());
        parser.registerEventParser(new DeleteRowsEventParser());
        parser.registerEventParser(new WriteRowsEventV2Parser());
        parser.registerEventParser(new UpdateRowsEventV2Parser());
        parser.registerEventParser(new DeleteRowsEventV2Parser());
        parser.registerEventParser(new FormatDescriptionEventParser());
        parser.registerEventParser(new GtidEventParser());
        parser.setBinlogFilePath(file.getParent());
        parser.setBinlogFileName(file.getName());
        parser.setStartPosition(4);
        parser.setEventListener(event -> { });
        Exception[] failure = new Exception[1];
        parser.addParserListener(new BinlogParserListener.Adapter() {
            @Override
            public void onException(BinlogParser p, Exception e) {
                if (failure[0] == null) {
                    failure[0] = e;
                }
            }
        });
        parser.setThreadFactory(task -> new Thread(task) {
            @Override
            public void start() {
                run();
            }
        });
        parser.start();
        if (failure[0] != null) {
            throw failure[0];
        }
    }
}
