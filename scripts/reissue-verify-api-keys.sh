#!/usr/bin/env bash
# Re-issues the verifyApiKey of every SMS configuration of a client under its secret key (docs/key-rotation.md): a
# token resolves only while the key that obtained it authenticates, so after a rotation run this with the NEW key
# within the grace, and hand the tokens to the dispatcher. SECRET_KEY is that key (sent in a header read from a file
# descriptor, never on a command line, never printed); BASE_URL aims it at the service (default http://127.0.0.1:3000).
# stdout holds credentials for the dispatcher, one line per configuration, `<smsConfigId> <verifyApiKey>`: redirect it
# to where the dispatcher reads its tokens, never into a shared log. It is written only once every token is issued;
# an answer other than 200 stops the script with its status and error on stderr, exit code 1, and nothing on stdout.
set -euo pipefail

BASE_URL=${BASE_URL:-http://127.0.0.1:3000}
: "${SECRET_KEY:?set SECRET_KEY to the secret key of the client (after a rotation, the new one)}"

# request PATH: POST with the secret key, the answer's body in ANSWER; another status than 200 stops the script.
request() {
  local path=$1 status
  ANSWER=$(curl -sS -X POST "$BASE_URL$path" -H @<(printf 'secretKey: %s\n' "$SECRET_KEY") -w '\n%{http_code}')
  status=${ANSWER##*$'\n'}
  ANSWER=${ANSWER%$'\n'*}
  [[ $status == 200 ]] || {
    echo "reissue-verify-api-keys: POST $path answered HTTP $status: $(error_of_answer)" >&2
    exit 1
  }
}

# error_of_answer: the error of the last answer, or its first 200 characters when it is not the service's envelope
error_of_answer() {
  node -e 'let answer = ""; process.stdin.on("data", (chunk) => (answer += chunk));
    process.stdin.on("end", () => { try { console.log(JSON.parse(answer).error ?? answer.slice(0, 200)); }
      catch { console.log(answer.slice(0, 200)); } });' <<<"$ANSWER"
}

# results FIELD: FIELD of the last answer's results, or of each of them when results is a list, one a line
results() {
  node -e 'let answer = ""; process.stdin.on("data", (chunk) => (answer += chunk));
    process.stdin.on("end", () => [JSON.parse(answer).results].flat().forEach((result) => console.log(result[process.argv[1]])));' \
    "$1" <<<"$ANSWER"
}

request /api/sms-config/get-all-by-client-id
CONFIG_IDS=$(results smsConfigId)

TOKENS=''
COUNT=0
for CONFIG_ID in $CONFIG_IDS; do
  request "/api/v1/sms-configs/$CONFIG_ID/verify-api-key"
  TOKENS+="$CONFIG_ID $(results verifyApiKey)"$'\n'
  COUNT=$((COUNT + 1))
done

printf '%s' "$TOKENS"
echo "reissue-verify-api-keys: $COUNT verifyApiKey(s) re-issued, one line each on stdout" >&2
