#!/usr/bin/env bash
# docs/key-rotation.md rehearsed on a client of its own, against a running service (`npm start` with
# DISPATCHER_API_KEYS set, in another terminal): the checks that an admin key and a dispatcher key are accepted (first,
# so that a wrong key stops the script before it adds anything), then a routine rotation with a grace period, in which
# the client's verifyApiKey is re-issued under the new key, and a leaked key revoked at once, with the tokens obtained
# with it. Each step says what it does and prints the answer (values of password and apiKey hidden); an answer with
# another status than the step expects stops the script. BASE_URL aims it elsewhere, ADMIN_KEY replaces the development
# admin key, DISPATCHER_KEY is one of the service's DISPATCHER_API_KEYS, and GRACE_SECONDS is the grace period of the
# routine rotation.
set -euo pipefail

BASE_URL=${BASE_URL:-http://127.0.0.1:3000}
ADMIN=${ADMIN_KEY:-$(npm run --silent keys)} # else the development admin key, from data/development-secrets.json
DISPATCHER=${DISPATCHER_KEY:?set DISPATCHER_KEY to a key the service was started with in DISPATCHER_API_KEYS}
GRACE_SECONDS=${GRACE_SECONDS:-5}
APP_NAME="key-rotation-$(date +%s)-$RANDOM" # a name no other client starts with, to find this one in the list
REISSUE="$(dirname "${BASH_SOURCE[0]}")/reissue-verify-api-keys.sh"

# call STATUS METHOD PATH [curl options]: prints the answer (values of password and apiKey hidden) and keeps it in
# ANSWER; an answer with another HTTP status than STATUS (one, or several as 200|409) stops the script.
call() {
  local expected=$1 method=$2 path=$3 status
  shift 3
  ANSWER=$(curl -sS -X "$method" "$BASE_URL$path" -w '\n%{http_code}' "$@")
  status=${ANSWER##*$'\n'}
  ANSWER=${ANSWER%$'\n'*}
  node -e 'let answer = ""; process.stdin.on("data", (chunk) => (answer += chunk));
    process.stdin.on("end", () => console.log(JSON.stringify(JSON.parse(answer),
      (name, value) => (["password", "apiKey"].includes(name) && typeof value === "string" ? "(hidden)" : value))));' <<<"$ANSWER"
  [[ $status =~ ^($expected)$ ]] || { echo "expected HTTP $expected, got $status" >&2; exit 1; }
}

# field PATH: one value of the last answer, such as results.secretKey or results.items.0.clientId
field() {
  node -e 'let answer = ""; process.stdin.on("data", (chunk) => (answer += chunk));
    process.stdin.on("end", () => console.log(process.argv[1].split(".").reduce((value, name) => value[name], JSON.parse(answer))));' \
    "$1" <<<"$ANSWER"
}

# reissue KEY: scripts/reissue-verify-api-keys.sh with KEY; prints its lines as [{smsConfigId, verifyApiKey}] and keeps
# them in ANSWER. The script stops this one when it fails.
reissue() {
  local lines
  lines=$(SECRET_KEY=$1 BASE_URL=$BASE_URL bash "$REISSUE")
  ANSWER=$(node -e 'let lines = ""; process.stdin.on("data", (chunk) => (lines += chunk));
    process.stdin.on("end", () => console.log(JSON.stringify(lines.split("\n").filter(Boolean).map((line) => line.split(" "))
      .map(([smsConfigId, verifyApiKey]) => ({ smsConfigId: Number(smsConfigId), verifyApiKey })))));' <<<"$lines")
  echo "$ANSWER"
}

# resolve STATUS TOKEN: the dispatcher resolves TOKEN; the answer's status must be STATUS
resolve() {
  call "$1" POST /api/v1/sms-configs/resolve -H "x-api-key: $DISPATCHER" -H "$JSON" -d "{\"verifyApiKey\":\"$2\"}"
}

JSON='content-type: application/json'

echo "== Check the admin key: a list of audit events (a key not in ADMIN_API_KEYS answers 401)"
call 200 GET "/api/v1/audit-events?limit=1" -H "x-api-key: $ADMIN"

echo "== Check the dispatcher key: a token that is no token answers 400 (a key not in DISPATCHER_API_KEYS answers 401)"
resolve 400 not-a-token

echo "== Rehearsal: add a client to rotate (admin key)"
call 200 POST /api/client/add -H "x-api-key: $ADMIN" -H "$JSON" \
  -d "{\"appName\":\"$APP_NAME\",\"appUrl\":\"https://billing.example.com\",\"isHost\":false}"
KEY=$(field results.secretKey)

echo "== Rehearsal: approve its provider's host (admin key): only approved hosts resolve (409: approved before)"
call '200|409' POST /api/v1/provider-hosts -H "x-api-key: $ADMIN" -H "$JSON" -d '{"host":"sms.example.com","note":"rehearsal"}'

echo "== Rehearsal: give it an SMS configuration (secretKey): the answer's verifyApiKey is the dispatcher's token"
call 200 POST /api/sms-config/add -H "secretKey: $KEY" -H "$JSON" \
  -d '{"providerName":"rehearsal","smsApi":"https://sms.example.com/send","username":"rehearsal",
       "password":"rehearsal-password","apiKey":"rehearsal-api-key","senderId":"REHEARSAL"}'
OLD_TOKEN=$(field results.verifyApiKey)

echo "== Routine 1. Rotate with the current key (secretKey): the new key works at once, the old one until previousKeyExpiresAt"
call 200 POST /api/v1/client/secret-key/rotate -H "secretKey: $KEY" -H "$JSON" -d "{\"graceSeconds\":$GRACE_SECONDS}"
OLD_KEY=$KEY
KEY=$(field results.secretKey)
EXPIRES_AT=$(field results.previousKeyExpiresAt)

echo "== Routine 2. Deploy the new key to the caller, and check it: get client by secret key"
call 200 POST /api/client/get/secretKey -H "secretKey: $KEY"

echo "== Routine 3. Re-issue every verifyApiKey with the new key, for the dispatcher: scripts/reissue-verify-api-keys.sh"
reissue "$KEY"
NEW_TOKEN=$(field 0.verifyApiKey)

echo "== Meanwhile the old key still works, for the instances of the caller not moved yet"
call 200 POST /api/client/get/secretKey -H "secretKey: $OLD_KEY"

echo "== Meanwhile the old verifyApiKey still resolves (dispatcher key), until the dispatcher has the re-issued one"
resolve 200 "$OLD_TOKEN"

echo "== Routine 4. At previousKeyExpiresAt the old key stops: get client answers 404"
sleep "$(node -e 'console.log(Math.max(0, Math.ceil((Date.parse(process.argv[1]) - Date.now()) / 1000)) + 1)' "$EXPIRES_AT")"
call 404 POST /api/client/get/secretKey -H "secretKey: $OLD_KEY"

echo "== And so does the verifyApiKey it obtained (dispatcher key): 409, issued under a key that is no longer valid"
resolve 409 "$OLD_TOKEN"

echo "== The re-issued verifyApiKey resolves (dispatcher key)"
resolve 200 "$NEW_TOKEN"

echo "== Leaked 1. Find the client (admin key): by the start of its appName"
call 200 GET "/api/v1/clients?appName=$APP_NAME&limit=1" -H "x-api-key: $ADMIN"
CLIENT_ID=$(field results.items.0.clientId)
LEAKED_KEY=$KEY
LEAKED_KEY_TOKEN=$NEW_TOKEN

echo "== Leaked 2. Rotate it (admin key) with graceSeconds 0: the leaked key is revoked at once"
call 200 POST "/api/v1/clients/$CLIENT_ID/secret-key/rotate" -H "x-api-key: $ADMIN" -H "$JSON" -d '{"graceSeconds":0}'
KEY=$(field results.secretKey)
sleep 1 # every instance forgets the leaked key within 1 s

echo "== Leaked 3. The audit log shows the rotation (admin key): by whom, in which request"
call 200 GET "/api/v1/audit-events?clientId=$CLIENT_ID&action=client.secret-key.rotated&limit=1" -H "x-api-key: $ADMIN"

echo "== Leaked 4. The leaked key is unknown: get client answers 404"
call 404 POST /api/client/get/secretKey -H "secretKey: $LEAKED_KEY"

echo "== Leaked 5. A verifyApiKey obtained with the leaked key no longer resolves (dispatcher key): 409"
resolve 409 "$LEAKED_KEY_TOKEN"

echo "== Leaked 6. The new key works: hand it to the client's owners"
call 200 POST /api/client/get/secretKey -H "secretKey: $KEY"

echo "== Leaked 7. They re-issue every verifyApiKey with it, for the dispatcher: scripts/reissue-verify-api-keys.sh"
reissue "$KEY"

echo "== Rehearsal: delete the client (admin key)"
call 200 DELETE "/api/v1/clients/$CLIENT_ID" -H "x-api-key: $ADMIN"
