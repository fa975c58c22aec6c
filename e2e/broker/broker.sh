#!/usr/bin/env bash
# A real single-node Kafka broker in KRaft mode on loopback, from Maven artifacts
# (org.apache.kafka:kafka_2.13, resolved by ./pom.xml): the end-to-end tests and
# .ci/run use it. No mock, no embedded fake.
#
#   broker.sh start DIR [PORT] [LIFETIME_S]   format DIR/data, start the broker, wait until it
#                                            accepts connections; prints its bootstrap address
#   broker.sh stop DIR                        stop it (and anything it started)
#
# The broker runs under `timeout LIFETIME_S` (default 900): if nobody stops it, it
# stops itself, so no process outlives a crashed test run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cmd="${1:?usage: broker.sh start|stop DIR [PORT] [LIFETIME_S]}"
dir="${2:?usage: broker.sh start|stop DIR [PORT] [LIFETIME_S]}"
port="${3:-19092}"
lifetime="${4:-900}"

case "$cmd" in
start)
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    mvn -q -B -f "$here/pom.xml" dependency:build-classpath -Dmdep.outputFile="$dir/classpath.txt" >"$dir/maven.log" 2>&1 \
        || { cat "$dir/maven.log" >&2; echo "broker.sh: cannot resolve the broker's classpath" >&2; exit 1; }
    cp="$(cat "$dir/classpath.txt")"
    controller=$((port + 1))
    rm -rf "$dir/data"
    cat >"$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$controller
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/data
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
group.initial.rebalance.delay.ms=0
PROPS
    cluster="$(java -cp "$cp" kafka.tools.StorageTool random-uuid | tail -1)"
    java -cp "$cp" kafka.tools.StorageTool format -t "$cluster" -c "$dir/server.properties" --standalone >"$dir/format.log" 2>&1 \
        || { cat "$dir/format.log" >&2; exit 1; }
    # setsid: the broker gets its own process group, which `stop` kills whole.
    setsid timeout "$lifetime" java -Xmx768m -Dlog4j2.configurationFile="$here/log4j2.properties" -cp "$cp" kafka.Kafka "$dir/server.properties" >"$dir/broker.log" 2>&1 &
    echo $! >"$dir/broker.pid"
    for _ in $(seq 1 120); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "127.0.0.1:$port"
            exit 0
        fi
        kill -0 "$(cat "$dir/broker.pid")" 2>/dev/null || { tail -20 "$dir/broker.log" >&2; echo "broker.sh: the broker exited" >&2; exit 1; }
        sleep 0.5
    done
    echo "broker.sh: the broker did not listen on $port within 60 s" >&2
    "$0" stop "$dir"
    exit 1
    ;;
stop)
    [ -f "$dir/broker.pid" ] || exit 0
    pid="$(cat "$dir/broker.pid")"
    kill -TERM -- "-$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.25
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
    rm -f "$dir/broker.pid"
    ;;
*)
    echo "usage: broker.sh start|stop DIR [PORT] [LIFETIME_S]" >&2
    exit 2
    ;;
esac
