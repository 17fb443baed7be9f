#!/usr/bin/env bash
# A classroom server: N copies of BPE Lab behind HAProxy, each learner's session kept on one copy,
# and the class rooms of Predict the next merge in one Redis that every copy shares.
#   bash scripts/serve.sh [--replicas N] [--port P] [--address A] [--redis-dir D]
# N defaults to the number of cores (Streamlit runs every session of one process on one core),
# P to 8501, A to 0.0.0.0 (HAProxy's address; the replicas and Redis listen on loopback only),
# D (where Redis keeps its append-only file) to ~/.local/state/bpe-lab/redis-P.
#
# Why HAProxy, and why sticky: a Streamlit session lives in the memory of the process that holds
# its WebSocket, and its uploads must reach that same process. HAProxy sets a cookie naming the
# replica on the first page load; the WebSocket and every later request carry it. If a replica
# dies, HAProxy sends its learners to a live one (option redispatch) and their page comes back
# from its link, which holds the example, the settings and the step (and a student's class room
# and seat: the room itself is in Redis, so it is all still there). A replica that dies (an
# out-of-memory kill, a crash) is started again on its port, and so is Redis: see "the supervisor".
#
# Why Redis: a class room must be the same room for students on different replicas. serve.sh
# starts Debian's redis-server on a free loopback port with a fresh random password (in a config
# file only this user can read, never on a command line) and persistence on (scripts/redis.conf),
# and gives the replicas its URL in BPE_LAB_REDIS_URL. Set BPE_LAB_REDIS_URL yourself to use a
# Redis of your own instead. BPE_LAB_PUBLIC_URL (the address on the rooms' QR codes when the
# teacher's browser runs on this machine) defaults to this machine's network address.
#
# Prints a line per replica ("replica r1 pid 1234 port 40001") and one for Redis ("redis pid 1235
# port 40002"), again whenever one is started again, and one for HAProxy, then "serving on URL", the
# address for phones, and the load-test command that measures it (replicas, Redis and HAProxy).
# Ctrl+C or SIGTERM stops every process it started (a trap; nothing is left running).
set -euo pipefail
cd "$(dirname "$0")/.."

replicas=$(nproc)
port=8501
address=0.0.0.0
redis_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --replicas) replicas=${2:?--replicas needs a number}; shift 2 ;;
    --port) port=${2:?--port needs a number}; shift 2 ;;
    --address) address=${2:?--address needs an address}; shift 2 ;;
    --redis-dir) redis_dir=${2:?--redis-dir needs a folder}; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/p' "$0" | grep '^#' | cut -c3-; exit 0 ;;  # the comment block above
    *) echo "serve.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $replicas =~ ^[1-9][0-9]?$ ]] || { echo "serve.sh: --replicas must be 1 to 99, got $replicas" >&2; exit 2; }
[[ $port =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] \
  || { echo "serve.sh: --port must be 1 to 65535, got $port" >&2; exit 2; }
PATH=$PATH:/usr/sbin  # Debian installs HAProxy there, outside an ordinary user's PATH
command -v haproxy >/dev/null \
  || { echo "serve.sh needs HAProxy: apt-get install -y haproxy (bash scripts/install.sh --test does)" >&2; exit 1; }
[ -n "${BPE_LAB_REDIS_URL:-}" ] || command -v redis-server >/dev/null \
  || { echo "serve.sh needs Redis for the class rooms: apt-get install -y redis-server (bash scripts/install.sh --test does)" >&2; exit 1; }
python=${BPE_PYTHON:-.venv/bin/python}
[ -x "$python" ] || { echo "serve.sh: no $python; run bash scripts/install.sh first (or set BPE_PYTHON)" >&2; exit 1; }

run_dir=$(mktemp -d "${TMPDIR:-/tmp}/bpe-serve.XXXXXX")
pids=()  # what this script started itself: the supervisors (Redis's, the replicas'), then HAProxy
supervised_pids() { cat "$run_dir"/*.pid 2>/dev/null || true; }  # each supervised process's current pid
stop() {  # SIGTERM to all (a supervisor stops its process); what still runs after 10 s gets SIGKILL
  trap - EXIT INT TERM
  touch "$run_dir/stopping"
  if [ ${#pids[@]} -gt 0 ]; then
    kill "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 50); do
      running=false
      for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && running=true; done
      $running || break
      sleep 0.2
    done
    # shellcheck disable=SC2046  # one pid per word
    kill -KILL "${pids[@]}" $(supervised_pids) 2>/dev/null || true
  fi
  wait 2>/dev/null || true
  rm -rf "$run_dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Every replica must sign cookies with the same secret (Streamlit's server.cookieSecret, read
# from this variable), or a cookie one replica signed is refused by another after a failover.
# Set it yourself to keep it across restarts; otherwise each start makes a fresh random one.
# (The XSRF token of uploads is a double-submit cookie and needs no shared secret in Streamlit
# 1.67; uploads need the session's own replica, which the stickiness cookie gives them.)
export STREAMLIT_SERVER_COOKIE_SECRET=${STREAMLIT_SERVER_COOKIE_SECRET:-$("$python" -c 'import secrets; print(secrets.token_hex(32))')}
export STREAMLIT_SERVER_HEADLESS=true

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# -- the supervisor: a replica or Redis that dies is started again ------------------------------------
# Each replica, and Redis, runs under a loop of its own that starts it again, on the same port,
# whenever it exits while the set is serving (an out-of-memory kill ended a replica's lesson for
# good, and with both dead HAProxy answered 503 while this script kept running). HAProxy finds a
# replica healthy after two checks a second apart and sends new learners and its old cookie holders
# there again; learners it moved to another replica meanwhile stay where they are. Redis comes back
# with its rooms from its append-only file and the same password; meanwhile the replicas say in one
# line that the room is away and the quiz goes on solo. A process that dies within 10 s of starting
# waits twice as long each time before the next start (at most 30 s), so a broken start cannot spin.
supervise() {  # NAME PORT COMMAND...: COMMAND, its pid in NAME.pid and output in NAME.log, until SIGTERM
  local name=$1 port=$2 child="" pause="" status started delay=1
  shift 2
  # shellcheck disable=SC2086  # an empty pid is no word
  trap 'kill $child $pause 2>/dev/null; wait 2>/dev/null; exit 0' TERM
  while true; do
    started=$SECONDS
    "$@" </dev/null >>"$run_dir/$name.log" 2>&1 &
    child=$!
    echo "$child" >"$run_dir/$name.pid"
    echo "${name/-/ } pid $child port $port"  # "replica r1 pid 1234 port 40001", "redis pid 1235 port 40002"
    status=0
    wait "$child" || status=$?
    [ -e "$run_dir/stopping" ] && exit 0  # Ctrl+C reached the process first: the set is stopping
    if [ $((SECONDS - started)) -lt 10 ]; then delay=$((delay * 2 > 30 ? 30 : delay * 2)); else delay=1; fi
    echo "${name/-/ } exited with status $status; starting it again in $delay s"
    sleep "$delay" &
    pause=$!
    wait "$pause" || true
  done
}

# Redis first: every replica is given its URL. The password lives in the URL (in the replicas'
# environment, readable by this user only) and in the config file, both made here.
if [ -z "${BPE_LAB_REDIS_URL:-}" ]; then
  redis_dir=${redis_dir:-${XDG_STATE_HOME:-$HOME/.local/state}/bpe-lab/redis-$port}
  mkdir -p "$redis_dir"
  redis_port=$(free_port)
  redis_password=$("$python" -c 'import secrets; print(secrets.token_hex(24))')
  (umask 077; printf 'include %s\nport %s\nrequirepass %s\ndir %s\n' \
    "$PWD/scripts/redis.conf" "$redis_port" "$redis_password" "$redis_dir" >"$run_dir/redis.conf")
  supervise redis "$redis_port" redis-server "$run_dir/redis.conf" &
  pids+=($!)
  echo "Redis keeps the rooms in $redis_dir"
  export BPE_LAB_REDIS_URL="redis://:$redis_password@127.0.0.1:$redis_port/0"
  "$python" - <<'PY' || { tail -n 20 "$run_dir/redis.log" >&2; exit 1; }
import os, sys, time, redis
client = redis.Redis.from_url(os.environ["BPE_LAB_REDIS_URL"], socket_timeout=1, socket_connect_timeout=1)
deadline = time.monotonic() + 60  # a long append-only file takes a while to load
while True:
    try:
        client.ping()
        break
    except redis.RedisError as error:
        if time.monotonic() > deadline:
            sys.exit(f"serve.sh: Redis did not answer within 60 s ({error})")
        time.sleep(0.1)
PY
fi
# The address on the rooms' QR codes when the teacher's own browser is on this machine (localhost).
if [ -z "${BPE_LAB_PUBLIC_URL:-}" ] && [ "$address" = 0.0.0.0 ]; then
  lan_ip=$(hostname -I 2>/dev/null | awk '{print $1}' || true)
  if [ -n "$lan_ip" ]; then export BPE_LAB_PUBLIC_URL="http://$lan_ip:$port"; fi
fi

replica_urls=()
for index in $(seq 1 "$replicas"); do
  replica_port=$(free_port)
  # Same app, same .streamlit/config.toml (read from this directory), so caches and limits agree.
  supervise "replica-r$index" "$replica_port" "$python" -m streamlit run app.py --server.headless=true \
    --server.address=127.0.0.1 --server.port="$replica_port" --browser.gatherUsageStats=false \
    --server.fileWatcherType=none &
  pids+=($!)
  replica_urls+=("http://127.0.0.1:$replica_port")
  echo "$replica_port" >"$run_dir/replica-r$index.port"  # for the agent, which asks a replica's health
done

healthy() {  # URLs...: wait until each answers /_stcore/health with "ok" (at most 60 s in all)
  BPE_SERVE_PIDS="${pids[*]}" "$python" - "$@" <<'PY'
import os, sys, time, urllib.request
deadline = time.monotonic() + 60
for url in sys.argv[1:]:
    while True:
        for pid in os.environ["BPE_SERVE_PIDS"].split():
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                sys.exit(f"serve.sh: process {pid} exited while starting (a port in use?)")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as answer:
                if answer.read().strip() == b"ok":
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            sys.exit(f"serve.sh: {url}/_stcore/health did not answer ok within 60 s")
        time.sleep(0.2)
PY
}
healthy "${replica_urls[@]}" || { tail -n 20 "$run_dir"/replica-*.log >&2; exit 1; }

# HAProxy's agent (scripts/replica_agent.py): asked about each replica every second, it answers
# "drain" while that replica's processes have wanted a whole core for the last 10 s (a long import,
# a big training run) and another replica has not: no new learners go there meanwhile, while its own
# learners' cookies still reach it. Supervised like the replicas; HAProxy ignores an agent that is away.
agent_port=$(free_port)
supervise agent "$agent_port" "$python" scripts/replica_agent.py --port "$agent_port" --run-dir "$run_dir" &
pids+=($!)
servers=""
for index in $(seq 1 "$replicas"); do
  servers+="    server r$index ${replica_urls[$((index - 1))]#http://} cookie r$index agent-check agent-port $agent_port agent-send \"r$index\\n\" agent-inter 1s"$'\n'
done

cat >"$run_dir/haproxy.cfg" <<EOF
global
    maxconn 4096
    # Fail on a port already in use rather than silently sharing it with another server.
    noreuseport

defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    # After the upgrade a WebSocket is a tunnel that lives as long as the lesson: a learner who
    # reads for a while must not be cut off by the 60 s timeouts meant for plain requests.
    timeout tunnel 2h
    timeout client-fin 10s

frontend bpe_lab
    bind $address:$port
    # The replicas see every connection come from HAProxy; the class rooms' join rate limit counts
    # each client by the address HAProxy adds here (a client's own header is dropped first).
    http-request del-header X-Forwarded-For
    option forwardfor
    default_backend replicas

backend replicas
    # Sessions are long WebSockets: a new learner goes to the replica holding the fewest.
    balance leastconn
    # The stickiness cookie: set on the first response, names the replica, never cached by proxies.
    cookie BPE_REPLICA insert indirect nocache httponly attr "SameSite=Lax"
    # A dead replica's learners go to a live one (and get a new cookie) instead of an error. A busy
    # one (the agent's "drain", below) keeps its learners and gets no new ones.
    option redispatch
    retries 2
    option httpchk GET /_stcore/health
    http-check expect string ok
    default-server check inter 1s fall 2 rise 2
$servers
EOF
haproxy -c -q -f "$run_dir/haproxy.cfg"
haproxy -db -f "$run_dir/haproxy.cfg" &
haproxy_pid=$!
pids+=("$haproxy_pid")
echo "haproxy pid $haproxy_pid port $port"
local_host=$([ "$address" = 0.0.0.0 ] && echo 127.0.0.1 || echo "$address")
healthy "http://$local_host:$port"
echo "serving on http://$local_host:$port (replica logs in $run_dir; Ctrl+C stops everything)"
if [ -n "${BPE_LAB_PUBLIC_URL:-}" ]; then echo "students' phones: $BPE_LAB_PUBLIC_URL"; fi
# shellcheck disable=SC2046  # one pid per word
echo "measure it: $python benchmarks/server_load_test.py --url http://$local_host:$port$(printf ' --server-pid %s' $(supervised_pids) "$haproxy_pid")"
wait "$haproxy_pid"
