#!/bin/sh
# The four fuzz findings of docs/findings.md (mysql-binlog-connector-java, findings 8-11) with the library
# alone: ReadBinlog.java (BinaryLogFileReader, default EventDeserializer) over each minimised
# input, then over its control, the unmutated corpus file the fuzzer mutated. The JVM gets 128 MB
# of heap so that the unbounded allocations (9, 10) show in seconds.
#   reproduce.sh [DIR_WITH_JARS]   (default: the harness's build, `python -m harness peers install`)
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
lib=${1:-$(cd "$repo" && python -c 'from harness.runtimes.jvm import RUNTIME; from harness.runtimes.base import PARSERS_DIR; print(RUNTIME.build_dir(PARSERS_DIR / "mysql-binlog-connector-java") / "lib")')}
cp=$(ls "$lib"/*.jar | tr '\n' ':')
# the last two events read, the exception and the library frame it came from, the exit status
run() {
    echo "== $1"
    out=$(mktemp)
    timeout 120 java -Xmx128m -cp "$cp" "$here/ReadBinlog.java" "$repo/$1" >"$out" 2>&1
    status=$?
    grep -a -v '^[[:space:]]at ' "$out" | tail -3 | cut -c1-200
    grep -a -m1 '^[[:space:]]at com.github.shyiko' "$out"
    echo "   exit status $status (124: killed by timeout after 120 s)"
    rm -f "$out"
}
for case in fuzz-checksum-alg-unknown:corpus/mysql-9.7/load_data--statement/binlog.000001 \
            fuzz-event-size-huge:corpus/mariadb-10.11/rotation--row-minimal/binlog.000001 \
            fuzz-rows-zero-width-hang:corpus/mysql-5.7/xa--row/binlog.000001 \
            fuzz-truncated-last-event:corpus/mariadb-10.5/rotation--row-minimal/binlog.000001; do
    run "corpus/findings/mysql-binlog-connector-java/${case%%:*}/binlog"
    run "${case#*:}"
done
