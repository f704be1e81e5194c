package conformance;

import com.google.code.or.binlog.BinlogParser;
import com.google.code.or.binlog.BinlogParserListener;
import com.google.code.or.binlog.impl.AbstractBinlogParser;
import com.google.code.or.binlog.impl.parser.*;

import java.util.concurrent.CountDownLatch;

/** The event parsers open-replicator's own OpenReplicator registers (getDefaultBinlogParser), which
 * is what Maxwell ran; the file testee registers the same on its FileBasedBinlogParser. And the
 * parser's own end/error path: BinlogParserListener (onException, then onStop when its worker
 * ends; an EOFException ends the worker without onException). */
final class Library {
    private Library() {}

    static void registerParsers(AbstractBinlogParser p) {
        p.registerEventParser(new StopEventParser());
        p.registerEventParser(new RotateEventParser());
        p.registerEventParser(new IntvarEventParser());
        p.registerEventParser(new XidEventParser());
        p.registerEventParser(new RandEventParser());
        p.registerEventParser(new QueryEventParser());
        p.registerEventParser(new UserVarEventParser());
        p.registerEventParser(new IncidentEventParser());
        p.registerEventParser(new TableMapEventParser());
        p.registerEventParser(new WriteRowsEventParser());
        p.registerEventParser(new UpdateRowsEventParser());
        p.registerEventParser(new DeleteRowsEventParser());
        p.registerEventParser(new WriteRowsEventV2Parser());
        p.registerEventParser(new UpdateRowsEventV2Parser());
        p.registerEventParser(new DeleteRowsEventV2Parser());
        p.registerEventParser(new FormatDescriptionEventParser());
        p.registerEventParser(new GtidEventParser());
    }

    /** Records the parser's first exception and opens `done` when its worker stops. */
    static final class Outcome implements BinlogParserListener {
        final CountDownLatch done = new CountDownLatch(1);
        volatile Exception failure;

        @Override public void onStart(BinlogParser parser) {}
        @Override public void onStop(BinlogParser parser) { done.countDown(); }
        @Override public void onException(BinlogParser parser, Exception e) {
            if (failure == null) failure = e;
        }
    }
}
