#!/usr/bin/env bash
# Runs a saved Atelier workflow from a script and downloads its results (README: "Run a
# workflow from a script"). Needs bash, curl and node; nothing else.
#
#   ATELIER_URL=https://atelier.example.com ATELIER_TOKEN=atl_… \
#     scripts/examples/run-workflow.sh WORKFLOW_ID ['{"text":{"text":"a harbour at dawn"}}'] [OUT_DIR]
#
# Run with --help for every option. Progress goes to stderr; stdout lists the downloaded files.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: run-workflow.sh [options] WORKFLOW_ID [INPUTS_JSON] [OUT_DIR]

Starts a server-side run of a saved workflow (POST /api/runs), follows it until it ends
(the /api/queue/events stream, or polling GET /api/runs/:id), then downloads every output
file of every node that has a result into OUT_DIR as <node>-<output>.<ext>.

Arguments (each may also come from the environment):
  WORKFLOW_ID    a saved workflow's id (GET /api/workflows lists yours)    ATELIER_WORKFLOW
  INPUTS_JSON    overrides for this run only, {"nodeId": {"param": value}}; node ids as in
                 GET /api/workflows/WORKFLOW_ID (data.nodes[].id)           ATELIER_INPUTS
  OUT_DIR        where results are saved (default ./atelier-outputs)        ATELIER_OUT

Environment:
  ATELIER_URL    the server (default http://localhost:3000)
  ATELIER_TOKEN  a personal API token (user menu → API tokens), required

Options:
  --up-to NODE   run NODE and what it needs only          (default: the whole workflow)
  --nodes A,B    run only these nodes (what feeds them gives its current results)
  --poll         poll GET /api/runs/:id instead of streaming events (ATELIER_POLL=1)
  --interval S   seconds between polls (default 2)        ATELIER_POLL_INTERVAL
  --timeout S    give up after S seconds (default 1800)   ATELIER_TIMEOUT
  -h, --help     this text

Exit status: 0 the run completed and its files are saved; 1 the run failed or was
cancelled (the results of the nodes that completed are still saved); 2 bad usage;
3 the server refused a request or could not be reached; 4 timed out.
EOF
}

say() { printf 'run-workflow: %s\n' "$*" >&2; }
die() {
  local code=$1
  shift
  say "$*"
  exit "$code"
}

url=${ATELIER_URL:-http://localhost:3000}
url=${url%/}
workflow=${ATELIER_WORKFLOW:-}
inputs=${ATELIER_INPUTS:-}
out=${ATELIER_OUT:-./atelier-outputs}
poll=${ATELIER_POLL:-0}
interval=${ATELIER_POLL_INTERVAL:-2}
timeout=${ATELIER_TIMEOUT:-1800}
target='{"all":true}'

positional=()
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help)
      usage
      exit 0
      ;;
    --poll) poll=1 ;;
    --up-to | --nodes | --interval | --timeout)
      [ $# -ge 2 ] || die 2 "$1 needs a value (see --help)"
      case $1 in
        --up-to) target="up-to:$2" ;;
        --nodes) target="nodes:$2" ;;
        --interval) interval=$2 ;;
        --timeout) timeout=$2 ;;
      esac
      shift
      ;;
    --) shift && positional+=("$@") && break ;;
    -*) die 2 "unknown option $1 (see --help)" ;;
    *) positional+=("$1") ;;
  esac
  shift
done
[ ${#positional[@]} -le 3 ] || die 2 "too many arguments (see --help)"
[ ${#positional[@]} -lt 1 ] || workflow=${positional[0]}
[ ${#positional[@]} -lt 2 ] || inputs=${positional[1]}
[ ${#positional[@]} -lt 3 ] || out=${positional[2]}

[ -n "$workflow" ] || die 2 "no workflow id: pass WORKFLOW_ID or set ATELIER_WORKFLOW (see --help)"
[ -n "${ATELIER_TOKEN:-}" ] || die 2 "ATELIER_TOKEN is not set: create a token in the user menu → API tokens"
for number in "$interval" "$timeout"; do
  case $number in '' | *[!0-9]*) die 2 "--interval and --timeout take whole seconds, not '$number'" ;; esac
done
[ "$interval" -gt 0 ] || interval=1
command -v curl >/dev/null || die 2 "curl is required"
command -v node >/dev/null || die 2 "node is required (to read JSON)"

# JSON, read with node: `json MODE` reads a document on stdin. Values travel in the
# environment, never in argv.
# shellcheck disable=SC2016 # JavaScript, not shell expansions
JSON_JS='
const mode = process.argv[1];
const text = require("node:fs").readFileSync(0, "utf8");
const terminal = ["completed", "failed", "cancelled"];
const fail = (message) => { process.stderr.write(message + "\n"); process.exit(1); };
const parse = (source, what) => {
  try { return JSON.parse(source); } catch { fail(`${what} is not JSON: ${source.slice(0, 200)}`); }
};
if (mode === "body") {
  const { RUN_WORKFLOW: workflowId, RUN_INPUTS: rawInputs, RUN_TARGET: rawTarget } = process.env;
  const inputs = rawInputs ? parse(rawInputs, "INPUTS_JSON") : undefined;
  if (inputs !== undefined && (inputs === null || typeof inputs !== "object" || Array.isArray(inputs)))
    fail(`INPUTS_JSON must be an object like {"nodeId":{"param":"value"}}`);
  let target = { all: true };
  if (rawTarget.startsWith("up-to:")) target = { upTo: rawTarget.slice(6) };
  else if (rawTarget.startsWith("nodes:"))
    target = { nodes: rawTarget.slice(6).split(",").map((id) => id.trim()).filter(Boolean) };
  console.log(JSON.stringify({ workflowId, target, ...(inputs ? { inputs } : {}) }));
  process.exit(0);
}
const doc = text.trim() ? parse(text, "The answer") : null;
const run = doc && (doc.run ?? doc);
switch (mode) {
  case "error":
    console.log(doc && typeof doc.error === "string" ? doc.error : text.trim().slice(0, 500));
    break;
  case "state":
    console.log(`${run.id} ${run.status} ${terminal.includes(run.status) ? "end" : "on"}`);
    break;
  case "steps":
    console.log(run.nodes.map((node) => `${node.id}: ${node.status}` +
      (node.error ? ` (${node.error})` : "") + (node.note ? ` (${node.note})` : "")).join("\n"));
    break;
  case "files": {
    const base = process.env.RUN_BASE;
    const safe = (name) => name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[.]+/, "_");
    const found = [];
    const walk = (node, key, value) => {
      if (Array.isArray(value)) return value.forEach((item, i) => walk(node, `${key}-${i + 1}`, item));
      if (value && typeof value === "object")
        return Object.entries(value).forEach(([inner, item]) => walk(node, `${key}-${inner}`, item));
      if (typeof value !== "string") return;
      if (!/^https?:\/\//i.test(value) && !value.startsWith("/api/media/")) return;
      let address;
      try { address = new URL(value, `${base}/`); } catch { return; }
      const ext = (address.pathname.match(/\.([A-Za-z0-9]{1,8})$/) ?? [])[1];
      found.push([safe(`${node}-${key}`) + (ext ? `.${ext.toLowerCase()}` : ""), address.href]);
    };
    for (const node of run.nodes)
      if ((node.status === "completed" || node.status === "skipped") && node.outputs)
        for (const [key, value] of Object.entries(node.outputs)) walk(node.id, key, value);
    const seen = new Set();
    for (const [name, href] of found)
      if (!seen.has(href)) { seen.add(href); console.log(`${name}\t${href}`); }
    break;
  }
  default:
    fail(`unknown mode ${mode}`);
}
'
json() { node -e "$JSON_JS" "$@"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/atelier-run.XXXXXX")
stream_pid=
cleanup() {
  if [ -n "$stream_pid" ]; then kill "$stream_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The token goes in a header read from a file descriptor: it never shows in `ps`.
auth() { printf 'Authorization: Bearer %s\n' "$ATELIER_TOKEN"; }

# api METHOD PATH [BODY]: the answer lands in $tmp/answer; a refusal exits with its error.
api() {
  local method=$1 path=$2 body=${3:-} status
  local args=(-sS -X "$method" --connect-timeout 10 --max-time 60 -o "$tmp/answer"
    -w '%{http_code}' -H 'Accept: application/json')
  if [ -n "$body" ]; then
    printf '%s' "$body" >"$tmp/request"
    args+=(-H 'Content-Type: application/json' --data-binary "@$tmp/request")
  fi
  status=$(curl "${args[@]}" -H @<(auth) "$url$path") ||
    die 3 "$method $path: cannot reach $url (curl exit $?)"
  if [ "$status" -lt 200 ] || [ "$status" -ge 300 ]; then
    die 3 "$method $path: $status $(json error <"$tmp/answer" 2>/dev/null || true)"
  fi
}

deadline=$((SECONDS + timeout))
left() { echo $((deadline - SECONDS)); }
timed_out() { die 4 "timed out after ${timeout}s; the run goes on: GET $url/api/runs/$run_id"; }

# 1. Start the run.
body=$(RUN_WORKFLOW=$workflow RUN_INPUTS=$inputs RUN_TARGET=$target json body) || exit 2
api POST /api/runs "$body"
read -r run_id status _ < <(json state <"$tmp/answer") || die 3 "POST /api/runs: unexpected answer"
say "run $run_id $status ($url/api/runs/$run_id)"

# Reads the run (GET /api/runs/:id) into $tmp/answer; sets status and finished (end|on).
finished=on
check() {
  api GET "/api/runs/$run_id"
  local id
  read -r id status finished < <(json state <"$tmp/answer") || die 3 "GET /api/runs/$run_id: unexpected answer"
}

# 2a. Polling: every $interval seconds.
follow_by_polling() {
  local last=
  while :; do
    check
    if [ "$status" != "$last" ]; then say "run $run_id $status"; fi
    last=$status
    if [ "$finished" = end ]; then return 0; fi
    if [ "$(left)" -le 0 ]; then timed_out; fi
    sleep "$interval"
  done
}

# 2b. Streaming: the user's event stream carries `event: run` with the whole run on every
# change. After `ready` (subscribed), one read catches a run that ended before the stream.
# Answers 1 when the stream could not be used (the caller falls back to polling).
follow_by_streaming() {
  mkfifo "$tmp/events"
  curl -sS -N --fail --connect-timeout 10 --max-time "$(left)" -H 'Accept: text/event-stream' \
    -H @<(auth) "$url/api/queue/events" >"$tmp/events" 2>"$tmp/stream-error" &
  stream_pid=$!
  exec 3<"$tmp/events"
  local line event="" data="" id state end last="" budget
  while :; do
    budget=$(left)
    if [ "$budget" -le 0 ]; then timed_out; fi
    if IFS= read -r -t "$budget" -u 3 line; then
      line=${line%$'\r'}
    elif [ $? -gt 128 ]; then
      timed_out
    else
      say "the event stream ended ($(head -c 300 "$tmp/stream-error" | tr '\n' ' ')); polling instead"
      exec 3<&-
      return 1
    fi
    case $line in
      '')
        if [ "$event" = ready ]; then
          check
          if [ "$finished" = end ]; then break; fi
        elif [ "$event" = run ] && [[ $data == *"\"$run_id\""* ]]; then
          read -r id state end < <(printf '%s' "$data" | json state)
          if [ "$id" = "$run_id" ]; then
            if [ "$state" != "$last" ]; then say "run $run_id $state"; fi
            last=$state
            if [ "$end" = end ]; then break; fi
          fi
        fi
        event="" data=""
        ;;
      :*) ;;
      event:*) event=${line#event:} event=${event# } ;;
      data:*) line=${line#data:} data=${data:+$data$'\n'}${line# } ;;
    esac
  done
  kill "$stream_pid" 2>/dev/null || true
  wait "$stream_pid" 2>/dev/null || true
  stream_pid=
  exec 3<&-
  check # the run as it stands, with every step's outputs
}

if [ "$poll" = 1 ]; then
  follow_by_polling
elif ! follow_by_streaming; then
  follow_by_polling
fi
json steps <"$tmp/answer" | sed 's/^/  /' >&2

# 3. Download the results of every node that has one (a kept result counts too).
cp "$tmp/answer" "$tmp/run.json"
mkdir -p "$out"
count=0
while IFS=$'\t' read -r name href; do
  [ -n "$name" ] || continue
  # Result files are public at unguessable addresses (maybe a bucket's): no token sent.
  curl -fsSL --connect-timeout 10 --max-time 600 --retry 2 -o "$out/$name" "$href" ||
    die 3 "could not download $href (curl exit $?)"
  printf '%s\n' "$out/$name"
  count=$((count + 1))
done < <(RUN_BASE=$url json files <"$tmp/run.json")
if [ "$status" != completed ]; then
  say "saved $count file(s) in $out"
  errors=$(json steps <"$tmp/run.json" | grep -E ': (failed|cancelled|not_run)' || true)
  die 1 "run $run_id $status${errors:+: $(printf '%s' "$errors" | paste -sd ';' - | sed 's/;/; /g')}"
fi
say "done: $count file(s) saved in $out"
